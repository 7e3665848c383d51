import { CHAT_NOTIFICATION_MS } from '../constants';
import { defineTopic, type ToastSpec } from './define-topic';

/** What the api pushes with a chat event (SPEC §3 "Live chat message"). */
export type ChatPayload = {
  groupId?: number;
  seq?: number;
  /** 1 text, 2 picture, 4 voice, 5 file. */
  type?: number;
  content?: string;
  fromUser?: { idUser: number; userName: string };
  group?: { idGroup: number; groupName: string };
  /** The person's own message, or one in the conversation they have open: not unread. */
  read?: boolean;
  groupName?: string;
  /** Members added or removed. */
  personIds?: number[];
  /** The stored record (issue 31): a message's or a system line's, so an open conversation shows it at once. */
  recordId?: number;
  createdAt?: string;
  /** The sender's id of the message: the sending tab swaps its "sending" copy for the stored one. */
  clientId?: string | null;
  fromAvatar?: string | null;
  /** The group's kind (1 private, 2 group). */
  groupType?: number;
  /** Chat read (3300): the reader's tabs clear that group; `cleared` records leave the unread total. */
  readSeq?: number;
  cleared?: number;
};

type ChatKind =
  'message' | 'memberAdded' | 'memberRemoved' | 'groupDissolved' | 'privateCreated' | 'groupCreated' | 'read';

const KIND_BY_CHANNEL: Record<number, ChatKind> = {
  1: 'message',
  3: 'message',
  4: 'memberAdded',
  5: 'memberRemoved',
  6: 'groupDissolved',
  3100: 'privateCreated',
  3200: 'groupCreated',
  3300: 'read',
};

/** Chat messages other than text show a placeholder. */
const PLACEHOLDER: Record<number, string> = {
  2: 'messages.chat.picture',
  4: 'messages.chat.voice',
  5: 'messages.chat.file',
};

/** Instant messaging: private (1) and group (3) messages and the changes of groups. */
export const chat = defineTopic<{ kind: ChatKind }, ChatPayload>()({
  name: 'chat',
  permissions: ['im:list'],
  channels: {
    privateChat: 1,
    groupChat: 3,
    addMember: 4,
    removeMember: 5,
    dissolveGroup: 6,
    createPrivateChat: 3100,
    createGroupChat: 3200,
    /** This api's own number (not in SPEC §7): the person read a chat in one tab; every tab clears it. */
    chatRead: 3300,
  },
  messageTypes: {},
  classify: (m) => ({ kind: KIND_BY_CHANNEL[m.channelType] }),
  counters: {
    shape: { chatUnread: (z) => z.number().int() },
    zero: () => ({ chatUnread: 0 }),
    apply: (own, e) => {
      if (e.kind === 'message' && e.payload.read !== true) own.chatUnread += 1;
      if (e.kind === 'read') own.chatUnread = Math.max(0, own.chatUnread - Number(e.payload.cleared ?? 0));
    },
  },
  // SPEC §7: a message from someone else shows the chat notification, which stays 3,000,000 ms and
  // opens the chat when clicked. Event 3 is a group chat (group and sender); 1 a private chat.
  toast: (e): ToastSpec | null => {
    if (e.kind !== 'message' || e.payload.read === true) return null;
    const type = Number(e.payload.type ?? 1);
    const sender = e.payload.fromUser?.userName ?? '';
    const groupName = e.payload.group?.groupName;
    return {
      level: 'info',
      ...(PLACEHOLDER[type] ? { key: PLACEHOLDER[type] } : { text: String(e.payload.content ?? '') }),
      title:
        e.channelType === 3 && groupName
          ? { key: 'messages.chat.fromGroup', values: { group: groupName, sender } }
          : { key: 'messages.chat.fromBuddy', values: { sender } },
      ms: CHAT_NOTIFICATION_MS,
      opens: e.payload.groupId ? `/instant-messaging/chat?open=${e.payload.groupId}` : '/instant-messaging/chat',
    };
  },
});
