import { lazy } from 'react';
import type { Screens } from '../layout/utils/screens';

/** The dashboard module's screens. */
export const dashboardScreens: Screens = {
  '/dashboard': lazy(() => import('./components/DashboardPage')),
  '/dashboard/historical-message': lazy(() => import('./components/HistoricalMessagesPage')),
};
