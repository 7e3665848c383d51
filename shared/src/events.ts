import { z } from 'zod';
import type { Permission } from './permissions';

/** Real-time event numbers of SPEC §7 (the api's upstream `channelType`). */
export const ChannelType = {
  system: 0,
  privateChat: 1,
  groupChat: 3,
  addMember: 4,
  removeMember: 5,
  dissolveGroup: 6,
  eventOrder: 7,
  complaint: 8,
  announcement: 9,
  disasterWarning: 10,
  join: 12,
  leave: 14,
  loginNotice: 3000,
  logout: 3001,
  createPrivateChat: 3100,
  createGroupChat: 3200,
} as const;
export type ChannelType = (typeof ChannelType)[keyof typeof ChannelType];

/** Notification message types of SPEC §9. */
export const MessageType = {
  sosAlarm: 7,
  eventReply: 11,
  complaintReply: 13,
  joinResidential: 27,
  joinParking: 28,
  joinMerchant: 29,
  exitResidential: 31,
  exitParking: 32,
  exitMerchant: 33,
  newEventOrder: 49,
  newComplaint: 50,
} as const;
export type MessageType = (typeof MessageType)[keyof typeof MessageType];

/** Types listed in the message panel (SPEC §9). */
export const MESSAGE_PANEL_TYPES: MessageType[] = [11, 13, 27, 28, 29, 31, 32, 33, 49, 50];
/** Types counted by the message bell's unread counter (SPEC §9). */
export const MESSAGE_COUNTER_TYPES: MessageType[] = [11, 13, 27, 28, 29, 31, 32, 33];
/** Types listed and counted by the alarm bell. */
export const ALARM_TYPES: MessageType[] = [7];

/** Join / exit message type for a house type (1 residential, 2 parking, 3 merchant). */
export function joinMessageType(houseType: 1 | 2 | 3): MessageType {
  return (26 + houseType) as MessageType;
}
export function exitMessageType(houseType: 1 | 2 | 3): MessageType {
  return (30 + houseType) as MessageType;
}

/** The typed topics of DESIGN §3 that the gateway delivers to tabs. */
export const TOPICS = ['alarms', 'workorders', 'chat', 'residents', 'announcements', 'session'] as const;
export type Topic = (typeof TOPICS)[number];

/** Permissions that allow subscribing to a topic (any one of them); null = always allowed. */
export const TOPIC_PERMISSIONS: Record<Topic, Permission[] | null> = {
  alarms: ['disasterwarn:list'],
  workorders: ['eventorder:list', 'complain:list'],
  chat: ['im:list'],
  residents: ['unit:list', 'carpark:list', 'shop:list'],
  announcements: ['bulletin:list'],
  session: null,
};

/** Topics a person holding these permissions may subscribe to. */
export function allowedTopics(perms: ReadonlySet<string>): Topic[] {
  return TOPICS.filter((t) => {
    const need = TOPIC_PERMISSIONS[t];
    return need === null || need.some((p) => perms.has(p));
  });
}

/**
 * One message on the upstream WebSocket (api → gateway). `channelType` picks the handler;
 * notification pushes also carry the `messageType` and `messageId` of the stored message.
 * Other fields depend on the event and travel on unchanged in `payload`.
 */
export const UpstreamMessageSchema = z
  .object({
    channelType: z.union([z.number().int(), z.literal('heartbeat')]),
    messageType: z.number().int().optional(),
    messageId: z.number().int().optional(),
    dataId: z.number().int().optional(),
    /**
     * The push's number in the recipient's sequence (the api's push journal); on a resuming
     * connection's first heartbeat, the number the stream continues after. Transport only: it
     * never reaches a tab.
     */
    pushSeq: z.number().int().optional(),
  })
  .passthrough();
export type UpstreamMessage = z.infer<typeof UpstreamMessageSchema>;

interface EventBase {
  /** The raw numbers the event came from. */
  channelType: number;
  messageType?: number;
  messageId?: number;
  /** Id of the record the event is about (complaint, work order, warning, group …). */
  dataId?: number;
  /** The upstream message as received. */
  payload: Record<string, unknown>;
}

export type AlarmEvent = EventBase & { topic: 'alarms'; kind: 'sos' | 'disasterWarning' };
export type WorkOrderEvent = EventBase & {
  topic: 'workorders';
  kind: 'complaint' | 'eventOrder';
  /** new: reported; reply: a reply was added; status: dealt with or completed. */
  action: 'new' | 'reply' | 'status';
};
export type ChatEvent = EventBase & {
  topic: 'chat';
  kind: 'message' | 'memberAdded' | 'memberRemoved' | 'groupDissolved' | 'privateCreated' | 'groupCreated';
};
export type ResidentEvent = EventBase & { topic: 'residents'; kind: 'join' | 'leave' };
export type AnnouncementEvent = EventBase & { topic: 'announcements'; kind: 'announcement' };
export type SessionEvent = EventBase & {
  topic: 'session';
  kind: 'system' | 'login' | 'logout' | 'expired' | 'forcedLogout';
};

/** The discriminated union every tier uses for live events (discriminate on `topic`, then `kind`). */
export type LiveEvent = AlarmEvent | WorkOrderEvent | ChatEvent | ResidentEvent | AnnouncementEvent | SessionEvent;

type Normalized = Omit<LiveEvent, keyof EventBase>;

const BY_CHANNEL: Record<number, Normalized | ((m: UpstreamMessage) => Normalized)> = {
  0: { topic: 'session', kind: 'system' },
  1: { topic: 'chat', kind: 'message' },
  3: { topic: 'chat', kind: 'message' },
  4: { topic: 'chat', kind: 'memberAdded' },
  5: { topic: 'chat', kind: 'memberRemoved' },
  6: { topic: 'chat', kind: 'groupDissolved' },
  7: (m) => ({ topic: 'workorders', kind: 'eventOrder', action: workOrderAction(m.messageType, 49, 11) }),
  8: (m) => ({ topic: 'workorders', kind: 'complaint', action: workOrderAction(m.messageType, 50, 13) }),
  9: { topic: 'announcements', kind: 'announcement' },
  10: (m) => ({ topic: 'alarms', kind: m.messageType === MessageType.sosAlarm ? 'sos' : 'disasterWarning' }),
  12: { topic: 'residents', kind: 'join' },
  14: { topic: 'residents', kind: 'leave' },
  3000: { topic: 'session', kind: 'login' },
  3001: { topic: 'session', kind: 'logout' },
  3100: { topic: 'chat', kind: 'privateCreated' },
  3200: { topic: 'chat', kind: 'groupCreated' },
};

function workOrderAction(messageType: number | undefined, created: number, reply: number): WorkOrderEvent['action'] {
  if (messageType === created) return 'new';
  if (messageType === reply) return 'reply';
  return 'status';
}

/**
 * Turns one upstream message into its typed event. Heartbeats and unknown numbers give
 * null (SPEC §7: unknown event numbers are logged as warnings and dropped by the caller).
 */
export function normalizeUpstream(message: UpstreamMessage): LiveEvent | null {
  if (message.channelType === 'heartbeat') return null;
  const rule = BY_CHANNEL[message.channelType];
  if (!rule) return null;
  const typed = typeof rule === 'function' ? rule(message) : rule;
  const { channelType, messageType, messageId, dataId, pushSeq: _pushSeq, ...payload } = message;
  return {
    ...typed,
    channelType,
    ...(messageType !== undefined && { messageType }),
    ...(messageId !== undefined && { messageId }),
    ...(dataId !== undefined && { dataId }),
    payload,
  } as LiveEvent;
}

/** The topic a notification message type belongs to (for panels and counters). */
export function topicOfMessageType(messageType: number): Topic | null {
  if (messageType === 7) return 'alarms';
  if ([11, 13, 49, 50].includes(messageType)) return 'workorders';
  if (messageType >= 27 && messageType <= 33 && messageType !== 30) return 'residents';
  return null;
}

/** Untreated / processing / completed totals of complaints or work orders. */
export const StatusTotalsSchema = z.object({
  untreated: z.number().int(),
  processing: z.number().int(),
  completed: z.number().int(),
});
export type StatusTotals = z.infer<typeof StatusTotalsSchema>;

/**
 * A person's live state: what the top bar and sidebar show. The gateway holds it per person,
 * sends it as 'snapshot' on connect and after each reconciliation, and both the gateway and
 * the client apply events to it with {@link applyEvent}.
 */
export const LiveSnapshotSchema = z.object({
  /** Unread notification messages by message type (keys are the numbers as strings). */
  unreadByType: z.record(z.string(), z.number().int()),
  /** Unread chat messages over all groups. */
  chatUnread: z.number().int(),
  complaints: StatusTotalsSchema,
  eventOrders: StatusTotalsSchema,
  /** Increases with every change the gateway makes; a tab ignores older snapshots. */
  version: z.number().int(),
});
export type LiveSnapshot = z.infer<typeof LiveSnapshotSchema>;

/**
 * A person's counters as the api answers them for the gateway (`GET /realtime/counters`): read in
 * one database snapshot, as of the person's push `pushSeq` — every push numbered up to it is
 * counted, none after it.
 */
export const LiveCountersSchema = LiveSnapshotSchema.omit({ version: true }).extend({ pushSeq: z.number().int() });
export type LiveCounters = z.infer<typeof LiveCountersSchema>;

/** Who a token belongs to, for the gateway (`GET /realtime/identity`). */
export const LiveIdentitySchema = z.object({
  personId: z.number().int(),
  accId: z.number().int(),
  roleValue: z.string(),
  /** The permission codes the person holds (every code for role ADMIN). */
  perms: z.array(z.string()),
  /** When the token expires (ISO 8601): the gateway drops the token's tabs then. */
  expiresAt: z.string(),
});
export type LiveIdentity = z.infer<typeof LiveIdentitySchema>;

export function emptySnapshot(): LiveSnapshot {
  const zero = { untreated: 0, processing: 0, completed: 0 };
  return { unreadByType: {}, chatUnread: 0, complaints: { ...zero }, eventOrders: { ...zero }, version: 0 };
}

/** The message bell's count (SPEC §9 counter types). */
export function messageCount(s: LiveSnapshot): number {
  return MESSAGE_COUNTER_TYPES.reduce((n, t) => n + (s.unreadByType[t] ?? 0), 0);
}
/** The SOS alarm bell's count. */
export function alarmCount(s: LiveSnapshot): number {
  return ALARM_TYPES.reduce((n, t) => n + (s.unreadByType[t] ?? 0), 0);
}

/**
 * Applies one event to a snapshot and returns the new one (pure). A stored notification
 * (messageId present) raises its type's unread count; new work orders raise "untreated";
 * a status change moves one from untreated to processing or processing to completed
 * (`payload.status` is the new status). Chat messages raise chat unread unless the
 * payload says they were read (sent by the person or in the open conversation).
 */
export function applyEvent(s: LiveSnapshot, e: LiveEvent): LiveSnapshot {
  const next: LiveSnapshot = {
    ...s,
    unreadByType: { ...s.unreadByType },
    complaints: { ...s.complaints },
    eventOrders: { ...s.eventOrders },
    version: s.version + 1,
  };
  if (e.messageType !== undefined && e.messageId !== undefined) {
    next.unreadByType[e.messageType] = (next.unreadByType[e.messageType] ?? 0) + 1;
  }
  if (e.topic === 'workorders') {
    const totals = e.kind === 'complaint' ? next.complaints : next.eventOrders;
    if (e.action === 'new') totals.untreated += 1;
    if (e.action === 'status') {
      const status = Number(e.payload.status);
      if (status === 2 && totals.untreated > 0) {
        totals.untreated -= 1;
        totals.processing += 1;
      } else if (status === 3 && totals.processing > 0) {
        totals.processing -= 1;
        totals.completed += 1;
      }
    }
  }
  if (e.topic === 'chat' && e.kind === 'message' && e.payload.read !== true) next.chatUnread += 1;
  return next;
}

/** A delta the gateway sends when counters change without an upstream event (a message read in another tab). */
export interface SnapshotPatch {
  unreadByType?: Record<string, number>;
  chatUnread?: number;
  version: number;
}

/** Acknowledgement of 'subscribe' / 'unsubscribe'. */
export interface SubscribeAck {
  topics: Topic[];
  refused: Topic[];
}

/** socket.io events the gateway sends to tabs (DESIGN §3). */
export interface ServerToClientEvents {
  snapshot: (s: LiveSnapshot) => void;
  alarms: (e: AlarmEvent) => void;
  workorders: (e: WorkOrderEvent) => void;
  chat: (e: ChatEvent) => void;
  residents: (e: ResidentEvent) => void;
  announcements: (e: AnnouncementEvent) => void;
  session: (e: SessionEvent) => void;
}

/** socket.io events tabs send to the gateway. */
export interface ClientToServerEvents {
  subscribe: (topics: Topic[], ack: (a: SubscribeAck) => void) => void;
  unsubscribe: (topics: Topic[], ack: (a: SubscribeAck) => void) => void;
}
