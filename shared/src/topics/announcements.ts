import { defineTopic } from './define-topic';

/** What happened to an announcement; absent on a push from before issue 20 (= published). */
export type AnnouncementAction = 'published' | 'revoked' | 'read' | 'voted' | 'reminder';

/** What the api pushes with an announcement event (event 9). */
export type AnnouncementPayload = {
  name?: string | null;
  title?: string;
  messageTime?: string;
  action?: AnnouncementAction;
  /** AnnouncementType: 1 info, 2 meeting, 3 vote. */
  type?: number;
};

/**
 * Announcements and votes of the estate: published and revoked (residents and the staff who list
 * them), read and voted (staff only: the read results and the pie charts move), vote reminders
 * (residents). Only a publication shows a toast.
 */
export const announcements = defineTopic<{ kind: 'announcement'; action: AnnouncementAction }, AnnouncementPayload>()({
  name: 'announcements',
  permissions: ['bulletin:list'],
  channels: { announcement: 9 },
  messageTypes: {},
  classify: (m) => ({
    kind: 'announcement',
    action: typeof m.action === 'string' ? (m.action as AnnouncementAction) : 'published',
  }),
  toast: (e) => (e.action === 'published' ? { level: 'info', key: 'messages.toasts.announcement' } : null),
});
