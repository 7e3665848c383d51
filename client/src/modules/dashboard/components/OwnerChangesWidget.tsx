import { useTranslation } from 'react-i18next';
import { fetchOwnerChanges, type OwnerChangeRow } from '../../api';
import { unitDisplay } from '../../ui/utils/unitDisplay';
import { useWidgetRows } from '../hooks/useWidgetRows';
import { WIDGET_ROWS, reloads } from '../utils/widgetRules';
import { DashboardWidget } from './DashboardWidget';

/** The screen of each house type (1 unit, 2 parking space, 3 shop); `?open=` opens the house with its people. */
const HOUSE_SCREENS: Record<number, string> = {
  1: '/building-management/unit-management',
  2: '/building-management/park-space-management',
  3: '/building-management/merchant-management',
};

/** Owner replacements (SPEC §1): owners who left a house, newest first, and who owns it now. */
export function OwnerChangesWidget() {
  const { t } = useTranslation();
  const data = useWidgetRows<OwnerChangeRow>(
    (signal) => fetchOwnerChanges(WIDGET_ROWS, signal).then((rows) => ({ rows })),
    reloads.residents,
  );
  return (
    <DashboardWidget
      id="ownerChanges"
      title={t('dashboardWidgets.ownerChanges.title')}
      screen={HOUSE_SCREENS[1]}
      empty={t('dashboardWidgets.ownerChanges.empty')}
      data={{
        ...data,
        rows:
          data.rows?.map((r) => ({
            key: r.personHouseHistoryId,
            to: `${HOUSE_SCREENS[r.houseType] ?? HOUSE_SCREENS[1]}?open=${r.houseId}`,
            title: unitDisplay(r),
            detail: r.newOwnerName
              ? t('dashboardWidgets.ownerChanges.replaced', { old: r.name, new: r.newOwnerName })
              : t('dashboardWidgets.ownerChanges.left', { old: r.name }),
            time: r.leaveTime,
          })) ?? null,
      }}
    />
  );
}
