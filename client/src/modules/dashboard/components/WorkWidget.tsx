import { Label } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { WorkStatus } from '@pm/shared';
import { fetchDashboardWork, type WorkRow } from '../../api';
import { liveState } from '../../live/states/liveState';
import { CountValue } from '../../ui/components/CountValue';
import { enumLabel } from '../../ui/utils/enumLabels';
import { unitDisplay } from '../../ui/utils/unitDisplay';
import type { WorkKind } from '../../work-orders/utils/workKinds';
import { useWidgetRows } from '../hooks/useWidgetRows';
import { WIDGET_ROWS, reloads } from '../utils/widgetRules';
import { DashboardWidget } from './DashboardWidget';

const STATUS_COLORS: Record<number, 'red' | 'orange'> = { 1: 'red', 2: 'orange' };

/**
 * Unfinished complaints or work orders (SPEC §1, §7 listByDashboard): the untreated and
 * processing counts of the live snapshot and the latest unfinished ones; a new one (message
 * type 49 / 50), a deal or a completion reloads them.
 */
export function WorkWidget({ kind }: { kind: WorkKind }) {
  const { t } = useTranslation();
  const { snapshot, loaded } = useSnapshot(liveState);
  const totals = snapshot[kind.totalsKey];
  const data = useWidgetRows<WorkRow>(
    (signal) => fetchDashboardWork(kind.kind, WIDGET_ROWS, signal).then((rows) => ({ rows })),
    reloads.work(kind.kind),
  );
  return (
    <DashboardWidget
      id={kind.kind}
      title={t(`dashboardWidgets.work.${kind.kind}`)}
      screen={kind.screenPath}
      empty={t('dashboardWidgets.work.empty')}
      counts={
        <span className="dash-widget-counts">
          <span data-testid={`widget-${kind.kind}-untreated`}>
            {enumLabel(t, WorkStatus, WorkStatus.untreated)} <CountValue value={loaded ? totals.untreated : null} />
          </span>
          <span data-testid={`widget-${kind.kind}-processing`}>
            {enumLabel(t, WorkStatus, WorkStatus.processing)} <CountValue value={loaded ? totals.processing : null} />
          </span>
        </span>
      }
      data={{
        ...data,
        rows:
          data.rows?.map((r) => ({
            key: r.id,
            to: `${kind.screenPath}?open=${r.id}`,
            title: `${r.code} ${r.name}`,
            label: (
              <Label size="mini" color={STATUS_COLORS[r.status]}>
                {enumLabel(t, WorkStatus, r.status)}
              </Label>
            ),
            detail: [r.reportPersonName, unitDisplay(r)].filter(Boolean).join(' · '),
            time: r.reportTime,
          })) ?? null,
      }}
    />
  );
}
