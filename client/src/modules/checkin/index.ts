import { lazy } from 'react';
import type { Screens } from '../layout/utils/screens';

/** Staff check-in (issue 32): the duty board, punch records, missing-card records, rules. */
export const checkinScreens: Screens = {
  '/check-in/personnel-monitoring': lazy(() => import('./components/PersonnelMonitoringPage')),
  '/check-in/punch-record': lazy(() => import('./components/PunchRecordPage')),
  '/check-in/missing-card-record': lazy(() => import('./components/MissingCardRecordPage')),
  '/check-in/check-in-rule-settings': lazy(() => import('./components/RuleSettingsPage')),
};
