import { buildingScreens } from '../../buildings';
import { announcementScreens } from '../../announcements';
import { dashboardScreens } from '../../dashboard';
import { disasterScreens } from '../../disaster';
import { workOrderScreens } from '../../work-orders';
import { ownerScreens } from '../../owners';
import { imScreens } from '../../im';
import { estateSettingsScreens } from '../../estate-settings';
import { adScreens } from '../../ads';
import { enterpriseScreens } from '../../enterprise';
import { checkinScreens } from '../../checkin';
import type { Screens } from './screens';

/**
 * Every built screen by route path: each module exports its own, a new module adds one line.
 * A permitted route without a screen shows the "coming" page.
 */
export const SCREENS: Screens = {
  ...dashboardScreens,
  ...workOrderScreens,
  ...buildingScreens,
  ...ownerScreens,
  ...disasterScreens,
  ...announcementScreens,
  ...imScreens,
  ...estateSettingsScreens,
  ...adScreens,
  ...enterpriseScreens,
  ...checkinScreens,
};
