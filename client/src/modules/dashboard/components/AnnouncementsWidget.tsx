import { Label } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { AnnouncementType } from '@pm/shared';
import { fetchAnnouncements, type AnnouncementListRow } from '../../api';
import { enumLabel } from '../../ui/utils/enumLabels';
import { useWidgetRows } from '../hooks/useWidgetRows';
import { WIDGET_ROWS, isNew, reloads } from '../utils/widgetRules';
import { DashboardWidget } from './DashboardWidget';

const SCREEN = '/announcement-management/index';

/** New and recent announcements (SPEC §1): the latest not revoked, those of the last day marked new. */
export function AnnouncementsWidget() {
  const { t } = useTranslation();
  const data = useWidgetRows<AnnouncementListRow>(
    (signal) => fetchAnnouncements(1, WIDGET_ROWS, { revoked: 0 }, signal).then((p) => ({ rows: p.list })),
    reloads.announcements,
  );
  const fresh = data.rows?.filter((r) => !r.scheduled && isNew(r.publishTime)).length ?? null;
  return (
    <DashboardWidget
      id="announcements"
      title={t('dashboardWidgets.announcements.title')}
      screen={SCREEN}
      empty={t('dashboardWidgets.announcements.empty')}
      counts={
        fresh ? (
          <Label size="small" color="green" data-testid="new-announcements">
            {t('dashboardWidgets.announcements.newCount', { count: fresh })}
          </Label>
        ) : null
      }
      data={{
        ...data,
        rows:
          data.rows?.map((r) => ({
            key: r.id,
            to: `${SCREEN}?open=${r.id}`,
            title: r.title,
            label: r.scheduled ? (
              <Label size="mini" basic>
                {t('dashboardWidgets.announcements.scheduled')}
              </Label>
            ) : isNew(r.publishTime) ? (
              <Label size="mini" color="green">
                {t('dashboardWidgets.new')}
              </Label>
            ) : undefined,
            detail: enumLabel(t, AnnouncementType, r.type),
            time: r.publishTime,
          })) ?? null,
      }}
    />
  );
}
