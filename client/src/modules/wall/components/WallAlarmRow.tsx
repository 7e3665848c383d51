import { useTranslation } from 'react-i18next';
import type { Snapshot } from 'valtio';
import { DisasterType } from '@pm/shared';
import { enumLabel } from '../../ui/utils/enumLabels';
import { formatTime } from '../../ui/utils/formatTime';
import { unitDisplay } from '../../ui/utils/unitDisplay';
import type { WallItem } from '../utils/wallItems';

/** One alarm of the feed, readable across a room: what, who, which house, when, acknowledged or not. */
export function WallAlarmRow({ item, fresh }: { item: Snapshot<WallItem>; fresh: boolean }) {
  const { t } = useTranslation();
  if (item.kind === 'sos') {
    const c = item.call;
    const open = c.state === 'open';
    return (
      <li
        className={`wall-alarm sos ${c.state}${fresh ? ' fresh' : ''}`}
        data-testid="wall-alarm"
        data-key={item.key}
        data-state={c.state}
      >
        <div className="wall-alarm-what">
          <span className="wall-alarm-kind">{t('wall.sos')}</span>
          <span className="wall-alarm-state">
            {open
              ? t('wall.open')
              : c.acknowledgedBy
                ? t('wall.acknowledgedBy', { name: c.acknowledgedBy })
                : t('wall.acknowledged')}
          </span>
        </div>
        <div className="wall-alarm-who">{c.personName ?? t('wall.unknownPerson')}</div>
        <div className="wall-alarm-where">
          {unitDisplay(c)}
          {c.position ? (
            <span className="wall-alarm-position"> · {t('wall.position', { position: c.position })}</span>
          ) : null}
        </div>
        <time className="wall-alarm-time" dateTime={c.createdAt}>
          {formatTime(c.createdAt)}
        </time>
      </li>
    );
  }
  const w = item.warning;
  return (
    <li
      className={`wall-alarm warning${fresh ? ' fresh' : ''}`}
      data-testid="wall-alarm"
      data-key={item.key}
      data-state="warning"
    >
      <div className="wall-alarm-what">
        <span className="wall-alarm-kind">
          {t('wall.warning')} · {enumLabel(t, DisasterType, w.type)}
        </span>
        <span className="wall-alarm-state">{t('wall.readBy', { read: w.read, total: w.recipients })}</span>
      </div>
      <div className="wall-alarm-who">{w.content}</div>
      <div className="wall-alarm-where">
        {w.publisherName ? `${w.publisherName} · ` : ''}
        {w.blockIds.length ? t('wall.blocks', { count: w.blockIds.length }) : t('wall.wholeEstate')}
      </div>
      <time className="wall-alarm-time" dateTime={w.publishTime}>
        {formatTime(w.publishTime)}
      </time>
    </li>
  );
}
