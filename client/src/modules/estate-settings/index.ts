import { lazy } from 'react';
import type { Screens } from '../layout/utils/screens';

/** The estate's own settings (issue 33): basic set-up. The sidebar logo and EstateSync live in the layout. */
export const estateSettingsScreens: Screens = {
  '/basic-set-up/index': lazy(() => import('./components/BasicSetUpPage')),
};
