import { lazy } from 'react';
import type { Screens } from '../layout/utils/screens';

/** The owners module: the owner-review screen, and each house's people for the buildings dialogs. */
export const ownerScreens: Screens = {
  '/building-management/owner-review': lazy(() => import('./components/OwnerReviewPage')),
};

export { HousePeopleTabs } from './components/HousePeopleTabs';
