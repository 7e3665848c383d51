import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { liveState } from '../../live/states/liveState';
import { formatTime } from '../../ui/utils/formatTime';

const SYMBOL = { connecting: '◌', live: '●', reconnecting: '↻', offline: '✕' } as const;

/**
 * The connection state, always in view and large (issue 22): live, connecting, reconnecting, or
 * offline since hh:mm (estate time). Uses the top bar's texts.
 */
export function WallConnection() {
  const { t } = useTranslation();
  const live = useSnapshot(liveState);
  const since = live.since === null ? '' : formatTime(live.since).slice(11);
  const text =
    live.status === 'offline' && since
      ? t('layout.connection.offlineSince', { time: since })
      : t(`layout.connection.${live.status}`);
  return (
    <div
      className={`wall-connection ${live.status}`}
      role="status"
      aria-live="polite"
      data-testid="wall-connection"
      data-status={live.status}
    >
      <span aria-hidden="true" className="wall-connection-symbol">
        {SYMBOL[live.status]}
      </span>{' '}
      {text}
    </div>
  );
}
