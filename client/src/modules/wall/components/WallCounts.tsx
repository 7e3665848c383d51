import { useTranslation } from 'react-i18next';
import type { WallCounts as Counts } from '@pm/shared';
import { NOT_LOADED } from '../../ui/components/CountValue';

/**
 * Unfinished complaints and work orders, untreated and processing. While the screen is not
 * current (offline, reconnecting, or the catch-up reading not in yet) the figures are greyed
 * and marked `data-current=false`; the page says since when they are not current.
 */
export function WallCounts({
  complaints,
  eventOrders,
  current,
}: {
  complaints: Counts | null;
  eventOrders: Counts | null;
  current: boolean;
}) {
  const { t } = useTranslation();
  const rows = [
    { key: 'complaints', label: t('wall.complaints'), counts: complaints },
    { key: 'eventOrders', label: t('wall.eventOrders'), counts: eventOrders },
  ] as const;
  return (
    <div className={`wall-counts${current ? '' : ' stale'}`} data-testid="wall-counts" data-current={current}>
      {rows.map((row) => (
        <div className="wall-count-group" key={row.key}>
          <h3>{row.label}</h3>
          <dl>
            {(['untreated', 'processing'] as const).map((status) => {
              const n = row.counts?.[status];
              return (
                <div className="wall-count" key={status}>
                  <dt>{t(`wall.${status}`)}</dt>
                  <dd data-testid={`wall-${row.key}-${status}`} data-count={n ?? 'unknown'}>
                    {n ?? NOT_LOADED}
                  </dd>
                </div>
              );
            })}
          </dl>
        </div>
      ))}
    </div>
  );
}
