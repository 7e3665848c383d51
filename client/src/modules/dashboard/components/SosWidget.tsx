import { Label } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { fetchOpenSos, type SosCall } from '../../api';
import { unitDisplay } from '../../ui/utils/unitDisplay';
import { useWidgetRows } from '../hooks/useWidgetRows';
import { WIDGET_ROWS, reloads } from '../utils/widgetRules';
import { DashboardWidget } from './DashboardWidget';

const SCREEN = '/disaster-warning/alert-detail';
const COLORS = { open: 'red', acknowledged: 'orange', closed: 'grey' } as const;

/** SOS help calls not yet closed (the alarms of the disaster area), newest first, with how many wait for help. */
export function SosWidget() {
  const { t } = useTranslation();
  const data = useWidgetRows<SosCall>(
    (signal) =>
      fetchOpenSos(signal).then((calls) => ({
        rows: [...calls].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt)).slice(0, WIDGET_ROWS),
        total: calls.filter((c) => c.state === 'open').length,
      })),
    reloads.sos,
  );
  const waiting = data.rows === null ? null : data.total;
  return (
    <DashboardWidget
      id="sos"
      title={t('dashboardWidgets.sos.title')}
      screen={SCREEN}
      empty={t('dashboardWidgets.sos.empty')}
      counts={
        waiting ? (
          <Label size="small" color="red" data-testid="sos-open-count">
            {t('dashboardWidgets.sos.count', { count: waiting })}
          </Label>
        ) : null
      }
      data={{
        ...data,
        rows:
          data.rows?.map((c) => ({
            key: c.id,
            to: `${SCREEN}?open=${c.id}`,
            title: [c.personName, unitDisplay(c)].filter(Boolean).join(' · '),
            label: (
              <Label size="mini" color={COLORS[c.state]}>
                {t(`disaster.sos.state.${c.state}`)}
              </Label>
            ),
            detail: c.position ?? undefined,
            time: c.createdAt,
          })) ?? null,
      }}
    />
  );
}
