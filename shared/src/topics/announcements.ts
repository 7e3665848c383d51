import { defineTopic } from './define-topic';

/** What happened to an announcement; absent on a push from before issue 20 (= published). */
export type AnnouncementAction = 'published' | 'revoked' | 'read' | 'voted' | 'reminder' | AnnouncementCommentAction;

/** A resident commented, or staff hid (or showed again) a comment: open consoles reload its comments. */
export type AnnouncementCommentAction = 'commented' | 'commentHidden';

/** What the api pushes with an announcement event (event 9). */
export type AnnouncementPayload = {
  name?: string | null;
  title?: string;
  messageTime?: string;
  action?: AnnouncementAction;
  /** AnnouncementType: 1 info, 2 meeting, 3 vote. */
  type?: number;
  /** The comment a 'commented' or 'commentHidden' event is about. */
  commentId?: number;
  /** 'commentHidden': hidden from residents (true) or shown again (false). */
  hidden?: boolean;
};

/**
 * Announcements and votes of the estate: published and revoked (residents and the staff who list
 * them), read and voted (staff only: the read results and the pie charts move), vote reminders
 * (residents), comments added and hidden (staff). Only a publication shows a toast; clicking it opens
 * the announcement's detail route (SPEC §2 announcement-detail).
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
  toast: (e) =>
    e.action === 'published'
      ? {
          level: 'info',
          key: 'messages.toasts.announcement',
          opens: e.dataId ? `/announcement-management/announcement-detail?open=${e.dataId}` : undefined,
        }
      : null,
});
