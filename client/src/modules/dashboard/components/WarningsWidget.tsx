import { Label } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { DisasterType } from '@pm/shared';
import { fetchWarnings, type WarnRow } from '../../api';
import { enumLabel } from '../../ui/utils/enumLabels';
import { useWidgetRows } from '../hooks/useWidgetRows';
import { WIDGET_ROWS, reloads } from '../utils/widgetRules';
import { DashboardWidget } from './DashboardWidget';

const SCREEN = '/disaster-warning/disaster-release';

/** New disaster warnings (SPEC §1): the latest released, revoked ones marked, who still asks for help. */
export function WarningsWidget() {
  const { t } = useTranslation();
  const data = useWidgetRows<WarnRow>(
    (signal) => fetchWarnings(1, WIDGET_ROWS, undefined, signal).then((p) => ({ rows: p.list, total: p.total })),
    reloads.warnings,
  );
  return (
    <DashboardWidget
      id="warnings"
      title={t('dashboardWidgets.warnings.title')}
      screen={SCREEN}
      empty={t('dashboardWidgets.warnings.empty')}
      data={{
        ...data,
        rows:
          data.rows?.map((r) => ({
            key: r.id,
            to: `${SCREEN}?open=${r.id}`,
            title: r.content,
            label: r.revoked ? (
              <Label size="mini" basic>
                {t('dashboardWidgets.warnings.revoked')}
              </Label>
            ) : (
              <Label size="mini" color="red">
                {enumLabel(t, DisasterType, r.type)}
              </Label>
            ),
            detail: r.helpOpen ? t('dashboardWidgets.warnings.helpOpen', { count: r.helpOpen }) : undefined,
            time: r.publishTime,
          })) ?? null,
      }}
    />
  );
}
