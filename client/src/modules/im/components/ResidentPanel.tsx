import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Identity } from '@pm/shared';
import { fetchResidentContext, type ResidentContext } from '../../api';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { enumLabel } from '../../ui/utils/enumLabels';
import { formatTime } from '../../ui/utils/formatTime';
import { unitDisplay } from '../../ui/utils/unitDisplay';

/**
 * Beside a chat with a resident (issue 31 "beyond what other consoles do"): their houses and their
 * open complaints and work orders, each a link to its record; followed live.
 */
export function ResidentPanel({ personId }: { personId: number }) {
  const { t } = useTranslation();
  const [data, setData] = useState<ResidentContext | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const abort = new AbortController();
    fetchResidentContext(personId, abort.signal).then(setData, () => undefined);
    return () => abort.abort();
  }, [personId, version]);
  useLiveEvent((e) => {
    if (e.topic === 'workorders') setVersion((v) => v + 1);
  });
  const work = (title: string, rows: ResidentContext['complaints'], path: string) =>
    rows && (
      <section>
        <h3>{title}</h3>
        {rows.length === 0 ? (
          <p className="resident-panel-none">{t('im.panel.none')}</p>
        ) : (
          <ul>
            {rows.map((w) => (
              <li key={w.id}>
                <Link to={`${path}?open=${w.id}`}>{w.code}</Link> {w.name}
                <span className="resident-panel-meta">
                  {t(`workOrders.status.s${w.status}`)} · {formatTime(w.reportTime)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    );
  return (
    <aside className="resident-panel" aria-label={t('im.residentInfo')} data-testid="resident-panel">
      {data && (
        <>
          <section>
            <h3>{t('im.panel.houses')}</h3>
            {data.tel && <p className="resident-panel-meta">{data.tel}</p>}
            <ul>
              {data.houses.map((h) => (
                <li key={h.personHouseId}>
                  {unitDisplay(h)} <span className="resident-panel-meta">{enumLabel(t, Identity, h.identity)}</span>
                </li>
              ))}
            </ul>
          </section>
          {work(t('im.panel.complaints'), data.complaints, '/complaints-suggestions/index')}
          {work(t('im.panel.eventOrders'), data.eventOrders, '/event-work-order/index')}
        </>
      )}
    </aside>
  );
}
