import { Label } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { Identity, JoinStatus } from '@pm/shared';
import { fetchReviewList, type PersonHouseRow } from '../../api';
import { enumLabel } from '../../ui/utils/enumLabels';
import { unitDisplay } from '../../ui/utils/unitDisplay';
import { useWidgetRows } from '../hooks/useWidgetRows';
import { WIDGET_ROWS, reloads } from '../utils/widgetRules';
import { DashboardWidget } from './DashboardWidget';

const SCREEN = '/building-management/owner-review';

/**
 * New owner registrations (SPEC §1): requests to join a house waiting for review, newest first,
 * with how many wait; each opens the review list searched for the person.
 */
export function JoinRequestsWidget() {
  const { t } = useTranslation();
  const data = useWidgetRows<PersonHouseRow>(
    (signal) =>
      fetchReviewList({ page: 1, limit: WIDGET_ROWS, status: JoinStatus.pending }, signal).then((p) => ({
        rows: p.list,
        total: p.total,
      })),
    reloads.residents,
  );
  return (
    <DashboardWidget
      id="joinRequests"
      title={t('dashboardWidgets.joinRequests.title')}
      screen={SCREEN}
      empty={t('dashboardWidgets.joinRequests.empty')}
      counts={
        data.total ? (
          <Label size="small" color="orange" data-testid="join-pending-count">
            {t('dashboardWidgets.joinRequests.count', { count: data.total })}
          </Label>
        ) : null
      }
      data={{
        ...data,
        rows:
          data.rows?.map((r) => ({
            key: r.personHouseId,
            to: `${SCREEN}?${new URLSearchParams({ q: r.tel ?? r.name })}`,
            title: r.name,
            label: (
              <Label size="mini" basic>
                {enumLabel(t, Identity, r.identity)}
              </Label>
            ),
            detail: unitDisplay(r),
            time: r.joinTime,
          })) ?? null,
      }}
    />
  );
}
