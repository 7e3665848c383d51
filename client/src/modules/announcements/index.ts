import { lazy } from 'react';
import type { Screens } from '../layout/utils/screens';

/** The announcements module's screens (SPEC §2): the list with its detail dialog, and the add screen. */
export const announcementScreens: Screens = {
  '/announcement-management/index': lazy(() => import('./components/AnnouncementListPage')),
  '/announcement-management/add-announcement': lazy(() => import('./components/AddAnnouncementPage')),
};
