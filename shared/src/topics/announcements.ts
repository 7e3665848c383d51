import { defineTopic } from './define-topic';

/** What the api pushes with a new announcement (event 9). */
export type AnnouncementPayload = {
  name?: string | null;
  title?: string;
  messageTime?: string;
};

/** Announcements and votes published to the estate. */
export const announcements = defineTopic<{ kind: 'announcement' }, AnnouncementPayload>()({
  name: 'announcements',
  permissions: ['bulletin:list'],
  channels: { announcement: 9 },
  messageTypes: {},
  classify: () => ({ kind: 'announcement' }),
  toast: () => ({ level: 'info', key: 'messages.toasts.announcement' }),
});
