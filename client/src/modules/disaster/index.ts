import { lazy } from 'react';
import type { Screens } from '../layout/utils/screens';

/** The disaster module's screens (issue 21). The alarm dialog itself is SosAlarmCenter, in the layout. */
export const disasterScreens: Screens = {
  '/disaster-warning/disaster-release': lazy(() => import('./components/DisasterReleasePage')),
  '/disaster-warning/add-disaster-warning': lazy(() => import('./components/AddWarningPage')),
  '/disaster-warning/alert-detail': lazy(() => import('./components/AlertDetailPage')),
  '/disaster-warning/disaster-declaration': lazy(() => import('./components/DeclarationPage')),
};
