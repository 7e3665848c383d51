import { lazy } from 'react';
import type { Screens } from '../layout/utils/screens';

/** The resident app's ads (issue 33): ad settings. */
export const adScreens: Screens = {
  '/ad-settings/index': lazy(() => import('./components/AdSettingsPage')),
};
