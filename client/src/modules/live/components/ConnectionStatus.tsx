import { Icon, type SemanticCOLORS, type SemanticICONS } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { session } from '../../auth/states/session';
import { formatTime } from '../../ui/utils/formatTime';
import { liveState, type ConnectionStatus as Status } from '../states/liveState';

const LOOK: Record<Status | 'signedOut', { icon: SemanticICONS; color: SemanticCOLORS }> = {
  connecting: { icon: 'circle notch', color: 'grey' },
  live: { icon: 'circle', color: 'green' },
  reconnecting: { icon: 'sync', color: 'orange' },
  offline: { icon: 'dont', color: 'red' },
  signedOut: { icon: 'dont', color: 'grey' },
};

/**
 * The top bar's live-connection state on every screen (wall screens depend on it): live,
 * connecting, reconnecting, or offline since hh:mm (estate time), announced politely to screen
 * readers when it changes. The text hides on narrow screens; the icon and its name stay.
 */
export function ConnectionStatus() {
  const { t } = useTranslation();
  const live = useSnapshot(liveState);
  const { ended } = useSnapshot(session);
  const status = ended ? 'signedOut' : live.status;
  const since = live.since === null ? '' : formatTime(live.since).slice(11);
  const text =
    status === 'offline' && since
      ? t('layout.connection.offlineSince', { time: since })
      : t(`layout.connection.${status}`);
  const look = LOOK[status];
  return (
    <div
      className={`connection-status ${status}`}
      role="status"
      aria-live="polite"
      title={text}
      data-testid="connection-status"
      data-status={status}
    >
      <Icon name={look.icon} color={look.color} size="small" aria-hidden="true" />
      <span className="connection-text">{text}</span>
    </div>
  );
}
