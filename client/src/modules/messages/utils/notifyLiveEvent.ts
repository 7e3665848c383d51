import { CHAT_NOTIFICATION_MS, type LiveEvent } from '@pm/shared';
import { i18n } from '../../i18n/i18n';
import { ownActionKey, takeOwnEcho } from '../../live/utils/ownActions';
import { showToast } from '../../ui/states/toasts';

const chatPlaceholder: Record<number, string> = {
  2: 'messages.chat.picture',
  4: 'messages.chat.voice',
  5: 'messages.chat.file',
};

/**
 * SPEC §7: message and alarm events show a toast; a disaster warning shows the new-alarm
 * notification; a chat message elsewhere shows the chat notification (SPEC's bottom right, moved
 * where it covers no control: ui.css) that stays 3,000,000 ms and opens the chat when clicked.
 */
export function notifyLiveEvent(e: LiveEvent, openChat: () => void): void {
  const t = i18n.t.bind(i18n);
  switch (e.topic) {
    case 'alarms':
      showToast('warning', t(e.kind === 'sos' ? 'messages.toasts.sos' : 'messages.toasts.disasterWarning'), {
        ms: 5000,
      });
      break;
    case 'workorders': {
      // One toast per action: the echo of this tab's own deal or complete says nothing more.
      const key =
        e.action === 'status' && e.dataId !== undefined
          ? ownActionKey('workorders', e.kind, e.dataId, Number(e.payload.status))
          : undefined;
      if (key && takeOwnEcho(key)) break;
      showToast('info', t(`messages.toasts.${e.kind}_${e.action}`), { key });
      break;
    }
    case 'residents':
      showToast('info', t(e.kind === 'join' ? 'messages.toasts.join' : 'messages.toasts.leave'));
      break;
    case 'announcements':
      showToast('info', t('messages.toasts.announcement'));
      break;
    case 'chat': {
      if (e.kind !== 'message' || e.payload.read === true) break;
      const p = e.payload as {
        content?: unknown;
        type?: unknown;
        fromUser?: { userName?: string };
        group?: { groupName?: string };
      };
      const type = Number(p.type ?? 1);
      const text = chatPlaceholder[type] ? t(chatPlaceholder[type]) : String(p.content ?? '');
      // Event 3 is a group chat (group and sender); event 1 a private chat with a buddy.
      const title =
        e.channelType === 3 && p.group?.groupName
          ? t('messages.chat.fromGroup', { group: p.group.groupName, sender: p.fromUser?.userName ?? '' })
          : t('messages.chat.fromBuddy', { sender: p.fromUser?.userName ?? '' });
      showToast('info', text, { title, ms: CHAT_NOTIFICATION_MS, onClick: openChat });
      break;
    }
    default:
      break;
  }
}
