import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ALARM_TYPES, messageViewLink, messageViewTarget } from '@pm/shared';
import { markMessageRead, type NotificationMessage } from '../../api';
import { hasPermission } from '../../auth/hooks/usePermission';
import { viewSosCall } from '../../disaster/utils/viewSosCall';
import { countMessageRead } from '../../live/states/liveState';
import { showToast } from '../../ui/states/toasts';

/**
 * "View" on a notification message, in the message and alarm panels and the historical messages
 * (SPEC §6, §9). An alarm opens the SOS dialog and stays unread while nobody has acknowledged
 * the call (issue 21: View never consumes an alarm unseen); one acknowledged or closed is read
 * once shown. Any other message is read (even when its details are not allowed, which is then
 * said) and its record opens. `onRead` runs once the message is read; `onNavigate` before
 * leaving (a panel closes).
 */
export function useOpenMessage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const read = async (m: NotificationMessage): Promise<boolean> => {
    if (m.readStatus) return true;
    try {
      await markMessageRead(m.messageId);
    } catch {
      return false;
    }
    countMessageRead(m.messageType);
    return true;
  };
  return async (m: NotificationMessage, on: { onRead?: () => void; onNavigate?: () => void } = {}) => {
    if ((ALARM_TYPES as number[]).includes(m.messageType) && m.dataId) {
      on.onNavigate?.();
      const state = await viewSosCall(m.dataId);
      if ((state === 'acknowledged' || state === 'closed') && (await read(m))) on.onRead?.();
      return;
    }
    const target = messageViewTarget(m.messageType);
    const allowed = !!target && hasPermission(target.perm);
    if (!(await read(m))) return;
    on.onRead?.();
    if (!allowed || !target) {
      showToast('error', t('errors.noDetailPermission'));
      return;
    }
    on.onNavigate?.();
    navigate(`/redirect${messageViewLink(target, m.dataId)}`);
  };
}
