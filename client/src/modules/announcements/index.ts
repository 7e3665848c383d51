import { lazy } from 'react';
import type { Screens } from '../layout/utils/screens';

/**
 * The announcements module's screens (SPEC §2): the list with its detail dialog, the add screen,
 * the detail as a route of its own (`?open=<id>`) and revoke as a route (the detail asking the
 * confirmation).
 */
export const announcementScreens: Screens = {
  '/announcement-management/index': lazy(() => import('./components/AnnouncementListPage')),
  '/announcement-management/add-announcement': lazy(() => import('./components/AddAnnouncementPage')),
  '/announcement-management/announcement-detail': lazy(() => import('./components/AnnouncementDetailPage')),
  '/announcement-management/revoke-announcement': lazy(() => import('./components/RevokeAnnouncementPage')),
};
