import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { Button, Header, Loader, Segment, Statistic } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useSnapshot } from 'valtio';
import { EventType, WorkStatus, enumValues, type WorkStats } from '@pm/shared';
import { fetchWorkStats } from '../../api';
import { usePermission } from '../../auth/hooks/usePermission';
import { liveState } from '../../live/states/liveState';
import { enumLabel } from '../../ui/utils/enumLabels';
import { WORK_KINDS, type WorkKind } from '../../work-orders/utils/workKinds';

// apexcharts is large (≈ 245 kB brotli, a long task to run on a phone): loaded only when a chart
// comes near the screen. On a phone the charts sit below the tiles, so a cold dashboard is usable
// first (README, console-load); on a desktop they are in view at once.
const Chart = lazy(() => import('react-apexcharts'));

/** Whether the element is within 200 px of the screen (once true, stays true); true where IntersectionObserver is missing. */
function useNearScreen<T extends Element>(): [React.RefObject<T>, boolean] {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (near || !ref.current) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), {
      rootMargin: '200px',
    });
    observer.observe(ref.current);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near];
}

const STATUS_COLORS = ['#db2828', '#f2711c', '#21ba45'];

/** "2 h 5 min", "3 h", "45 min", "–" for none. */
function duration(t: TFunction, minutes: number | null): string {
  if (minutes === null) return '–';
  const h = Math.floor(minutes / 60);
  if (!h) return t('dashboard.charts.minutes', { m: minutes });
  return minutes % 60 ? t('dashboard.charts.hoursMinutes', { h, m: minutes % 60 }) : t('dashboard.charts.hours', { h });
}

/**
 * One kind's charts: reports per day by their status now (stacked bars), work orders by type
 * (donut), average time to deal and to complete. Reloads when the live totals of the kind move.
 */
function KindCharts({ kind }: { kind: WorkKind }) {
  const { t } = useTranslation();
  const [days, setDays] = useState<7 | 30>(7);
  const [stats, setStats] = useState<WorkStats | null>(null);
  const [failed, setFailed] = useState(false);
  const totals = useSnapshot(liveState).snapshot[kind.totalsKey];
  const [box, near] = useNearScreen<HTMLDivElement>();
  const reloadKey = `${totals.untreated}/${totals.processing}/${totals.completed}`;

  useEffect(() => {
    const abort = new AbortController();
    fetchWorkStats(kind.kind, days, abort.signal)
      .then((s) => {
        setStats(s);
        setFailed(false);
      })
      .catch(() => !abort.signal.aborted && setFailed(true));
    return () => abort.abort();
  }, [kind.kind, days, reloadKey]);

  const statuses = enumValues(WorkStatus);
  const keys = ['untreated', 'processing', 'completed'] as const;
  return (
    <Segment
      className="work-charts"
      data-testid={`charts-${kind.kind}`}
      data-days={stats?.days.length}
      data-today={stats ? JSON.stringify(stats.days.at(-1)) : undefined}
    >
      <div className="work-charts-head" ref={box}>
        <Header as="h2" size="small">
          {t(`dashboard.charts.${kind.kind}`, { days })}
        </Header>
        <Button.Group size="mini" basic>
          {([7, 30] as const).map((d) => (
            <Button key={d} active={d === days} aria-pressed={d === days} onClick={() => setDays(d)}>
              {t('dashboard.charts.days', { days: d })}
            </Button>
          ))}
        </Button.Group>
      </div>
      {failed && <p>{t('dashboard.charts.failed')}</p>}
      {!stats && !failed && <Loader active inline="centered" size="small" />}
      {stats && near && (
        <Suspense fallback={<Loader active inline="centered" size="small" />}>
          <Chart
            type="bar"
            height={220}
            series={statuses.map((s, i) => ({
              name: enumLabel(t, WorkStatus, s),
              data: stats.days.map((d) => d[keys[i]]),
            }))}
            options={{
              chart: { stacked: true, toolbar: { show: false }, animations: { enabled: false } },
              colors: STATUS_COLORS,
              xaxis: { categories: stats.days.map((d) => d.day.slice(5)) },
              yaxis: { labels: { formatter: (v: number) => String(Math.round(v)) } },
              dataLabels: { enabled: false },
              legend: { position: 'top' },
            }}
          />
          {kind.hasType && stats.byType.length > 0 && (
            <Chart
              type="donut"
              height={200}
              series={stats.byType.map((b) => b.count)}
              options={{
                labels: stats.byType.map((b) => enumLabel(t, EventType, b.type)),
                legend: { position: 'right' },
                dataLabels: { formatter: (v: number) => `${Math.round(v)}%` },
              }}
            />
          )}
        </Suspense>
      )}
      {stats && (
        <Statistic.Group size="mini" widths={2}>
          <Statistic data-testid={`avg-deal-${kind.kind}`}>
            <Statistic.Value>{duration(t, stats.avgDealMinutes)}</Statistic.Value>
            <Statistic.Label>{t('dashboard.charts.avgDeal')}</Statistic.Label>
          </Statistic>
          <Statistic data-testid={`avg-complete-${kind.kind}`}>
            <Statistic.Value>{duration(t, stats.avgCompleteMinutes)}</Statistic.Value>
            <Statistic.Label>{t('dashboard.charts.avgComplete')}</Statistic.Label>
          </Statistic>
        </Statistic.Group>
      )}
    </Segment>
  );
}

/** The charts of the kinds the person may list; a kind they may not see is absent. */
export function WorkCharts() {
  const complaints = usePermission(WORK_KINDS.complaint.perms.list);
  const orders = usePermission(WORK_KINDS.eventOrder.perms.list);
  if (!complaints && !orders) return null;
  return (
    <div className="work-charts-row">
      {complaints && <KindCharts kind={WORK_KINDS.complaint} />}
      {orders && <KindCharts kind={WORK_KINDS.eventOrder} />}
    </div>
  );
}
