import { lazy } from 'react';
import type { Screens } from '../layout/utils/screens';

/** Instant messaging's screens (issue 31); chat loads lazily, with its virtualized list. */
export const imScreens: Screens = {
  '/instant-messaging/chat': lazy(() => import('./components/ChatPage')),
  '/instant-messaging/address-book': lazy(() => import('./components/AddressBookPage')),
  '/instant-messaging/address-book-settings': lazy(() => import('./components/AddressBookSettingsPage')),
};
