import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { messageViewLink, messageViewTarget } from '@pm/shared';
import { markMessageRead, type NotificationMessage } from '../../api';
import { hasPermission } from '../../auth/hooks/usePermission';
import { countMessageRead } from '../../live/states/liveState';
import { showToast } from '../../ui/states/toasts';

/**
 * "View" on a notification message (SPEC §6, §9): marks it read (even when the details are not
 * allowed, then says so) and opens its record.
 * `onRead` runs once the message is read; `onNavigate` before leaving (a panel closes).
 */
export function useOpenMessage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return async (m: NotificationMessage, on: { onRead?: () => void; onNavigate?: () => void } = {}) => {
    const target = messageViewTarget(m.messageType);
    const allowed = !!target && hasPermission(target.perm);
    if (!m.readStatus) {
      try {
        await markMessageRead(m.messageId);
      } catch {
        return;
      }
      countMessageRead(m.messageType);
    }
    on.onRead?.();
    if (!allowed || !target) {
      showToast('error', t('errors.noDetailPermission'));
      return;
    }
    on.onNavigate?.();
    navigate(`/redirect${messageViewLink(target, m.dataId)}`);
  };
}
