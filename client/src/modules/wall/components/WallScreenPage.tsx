import { useRef } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { loginPathFor } from '../../auth/components/RequireAuth';
import { usePermission } from '../../auth/hooks/usePermission';
import { session } from '../../auth/states/session';
import { logout } from '../../auth/utils/logout';
import { sosAlarms } from '../../disaster/states/sosAlarms';
import { EstateSync } from '../../estate-settings/components/EstateSync';
import { playSosSound } from '../../disaster/utils/sosSound';
import { liveState } from '../../live/states/liveState';
import { formatTime } from '../../ui/utils/formatTime';
import { useWallLive } from '../hooks/useWallLive';
import { wallFeed } from '../states/wallFeed';
import { WALL_ROWS } from '../utils/wallItems';
import { WallAlarmRow } from './WallAlarmRow';
import { WallClock } from './WallClock';
import { WallConnection } from './WallConnection';
import { WallCounts } from './WallCounts';
import { WallFullscreenButton } from './WallFullscreenButton';
import '../wall.css';

/**
 * The wall screen (issue 22): a full-screen page outside the sidebar frame, with no dialog and
 * no toast, for a display across a room. Live SOS calls and disaster warnings (unacknowledged
 * first), unfinished complaints and work orders, the estate's clock and the connection state.
 * What it shows is current only while live and read since the last (re)connect; otherwise it
 * says so.
 */
export default function WallScreenPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const allowed = usePermission('wall:view');
  const { token, perms } = useSnapshot(session);
  const root = useRef<HTMLDivElement>(null);
  // A session that ended (expired, revoked) goes to the sign-in page, back to the wall after it:
  // this render can come before the navigation to /login commits, and must not send it to /404.
  if (!token) return <Navigate to={loginPathFor('/wall')} replace />;
  if (!allowed) return <Navigate to="/404" replace />;
  return (
    <div className="wall-screen" ref={root} data-testid="wall-screen">
      <WallLive token={token} perms={perms} />
      <EstateSync />
      <header className="wall-header">
        <h1 className="wall-title">{t('wall.title')}</h1>
        <WallClock />
        <WallConnection />
        <div className="wall-actions">
          <SoundButton />
          <WallFullscreenButton target={root} />
          <button
            type="button"
            className="wall-button quiet"
            onClick={() => void logout().then(() => navigate('/login?redirect=%2Fwall', { replace: true }))}
          >
            {t('wall.actions.signOut')}
          </button>
        </div>
      </header>
      <WallBody />
    </div>
  );
}

function WallLive({ token, perms }: { token: string; perms: readonly string[] }) {
  useWallLive(token, perms);
  return null;
}

/** Browsers refuse sound until someone touched the page: this button is that touch. */
function SoundButton() {
  const { t } = useTranslation();
  const { soundBlocked } = useSnapshot(sosAlarms);
  if (!soundBlocked) return null;
  return (
    <button type="button" className="wall-button alert" onClick={playSosSound}>
      {t('wall.actions.enableSound')}
    </button>
  );
}

function WallBody() {
  const { t } = useTranslation();
  const wall = useSnapshot(wallFeed);
  const live = useSnapshot(liveState);
  const current = live.status === 'live' && wall.loadedAt !== null && !wall.behind;
  const shown = wall.items.slice(0, WALL_ROWS);
  const hidden = wall.items.length - shown.length + (wall.feed ? wall.feed.sosTotal - wall.feed.sos.length : 0);
  const fresh = new Set(wall.fresh);
  const newest = wall.items.find((i) => fresh.has(i.key));
  return (
    <main className={`wall-body${current ? '' : ' stale'}`} data-current={current}>
      {!current && (
        <p className="wall-stale" data-testid="wall-stale">
          {wall.loadedAt === null
            ? t('wall.staleNever')
            : t('wall.stale', { time: formatTime(wall.loadedAt).slice(11) })}
        </p>
      )}
      <section className="wall-alarms" aria-labelledby="wall-alarms-title">
        <h2 id="wall-alarms-title">{t('wall.alarms')}</h2>
        {/* A new alarm is announced once; the rows themselves are not a live region. */}
        <p className="visually-hidden" aria-live="assertive">
          {newest ? t('wall.newAlarm', { what: newest.kind === 'sos' ? t('wall.sos') : t('wall.warning') }) : ''}
        </p>
        {wall.feed === null ? (
          <p className="wall-empty">{t('wall.loading')}</p>
        ) : shown.length === 0 ? (
          <p className="wall-empty" data-testid="wall-no-alarms">
            {t('wall.noAlarms')}
          </p>
        ) : (
          <ol className="wall-alarm-list" data-testid="wall-alarms">
            {shown.map((item) => (
              <WallAlarmRow key={item.key} item={item} fresh={fresh.has(item.key)} />
            ))}
          </ol>
        )}
        {hidden > 0 && <p className="wall-more">{t('wall.more', { count: hidden })}</p>}
      </section>
      <section className="wall-unfinished" aria-labelledby="wall-unfinished-title">
        <h2 id="wall-unfinished-title">{t('wall.unfinished')}</h2>
        <WallCounts
          complaints={wall.feed?.complaints ?? null}
          eventOrders={wall.feed?.eventOrders ?? null}
          current={current}
        />
      </section>
    </main>
  );
}
