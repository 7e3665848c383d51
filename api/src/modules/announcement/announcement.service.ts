import { AnnouncementType, ChannelType, type AnnouncementSave } from '@pm/shared';
import type { Tx } from '../../db/open-database';
import { AppError } from '../../http/app-error';
import type { AuthedContext } from '../../http/request-context';
import { pushAfterCommit } from '../message/notify';
import { withPushes } from '../message/push-outbox';
import { listingStaff } from './announcement.recipients';
import {
  announcementOf,
  findAnnouncement,
  insertAnnouncement,
  insertRecipients,
  markRevoked,
  setCommentHidden,
  recipientsOf,
  type AnnouncementDetailRow,
} from './announcement.repository';
import { estateSettings } from '../estate-settings/estate-settings.service';
import { hasVisibleContent, sanitizeContent } from './sanitize-content';

/** The staff's side of announcements: publish, read the results, revoke. */

export {
  countRecipients,
  listAnnouncements,
  listComments,
  listReaders,
  recipientChoices,
} from './announcement.repository';
export { exportResults } from './announcement.export';

/** Runs a change and its pushes in one transaction; pushes leave after the commit. */
function inTransaction<T>(ctx: AuthedContext, work: (tx: Tx) => Promise<T>): Promise<T> {
  return withPushes(ctx.db, ctx.services.realtime, work, (err) => ctx.log.error({ err }, 'push after commit failed'));
}

export async function getAnnouncement(ctx: AuthedContext, id: number): Promise<AnnouncementDetailRow> {
  const found = await findAnnouncement(ctx.db, ctx.tenant, id);
  if (!found) throw AppError.notFound();
  return found;
}

/** The announcement of the caller's estate (404 otherwise). */
export async function ownAnnouncement(ctx: AuthedContext, id: number) {
  const a = await announcementOf(ctx.db, ctx.tenant, id);
  if (!a) throw AppError.notFound();
  return a;
}

const required = (what: string) => AppError.badRequest(`announcements.errors.required.${what}`);

/** The fields of each type (SPEC §5): a meeting needs place and time, a vote its options, mode, deadline and interval. */
function checkByType(b: AnnouncementSave, publishAt: Date) {
  const deadline = b.deadline ? new Date(b.deadline) : null;
  if (deadline && deadline.getTime() <= publishAt.getTime())
    throw AppError.badRequest('announcements.errors.deadlinePast');
  if (b.type === AnnouncementType.meeting) {
    if (!b.meetingPlace) throw required('meetingPlace');
    if (!b.meetingTime) throw required('meetingTime');
  }
  if (b.type === AnnouncementType.vote) {
    if (!deadline) throw required('deadline');
    if (!b.selectionMode) throw required('selectionMode');
    if (!b.reminderInterval) throw required('reminderInterval');
    if (!b.options || b.options.length === 0) throw AppError.badRequest('announcements.errors.atLeastOneOption');
  }
  return deadline;
}

/**
 * Publishes now: the content is sanitized, the recipients resolved and stored in one INSERT …
 * SELECT, and after the commit every recipient and every staff member who lists announcements is
 * pushed event 9. A vote gets its first reminder one interval after publishing (in the estate's
 * reminder unit).
 */
export async function publish(ctx: AuthedContext, b: AnnouncementSave): Promise<AnnouncementDetailRow> {
  const now = new Date();
  // Publish at a set time: shown and told then (the timer of announcement.reminders.ts).
  const later = b.publishAt && new Date(b.publishAt).getTime() > now.getTime() ? new Date(b.publishAt) : null;
  const publishTime = later ?? now;
  const deadline = checkByType(b, publishTime);
  const content = sanitizeContent(b.content);
  if (!hasVisibleContent(content)) throw required('content');
  const isVote = b.type === AnnouncementType.vote;
  const isMeeting = b.type === AnnouncementType.meeting;
  // The length of one reminder unit is the estate's setting as it is now (basic set-up).
  const unitMs = isVote
    ? (await estateSettings(ctx.db, ctx.tenant.housingEstateId, ctx.services.config.estateDefaults)).voteReminderUnitMs
    : 0;
  const id = await inTransaction(ctx, async (tx) => {
    const newId = await insertAnnouncement(
      tx,
      ctx.tenant,
      ctx.caller.personId,
      {
        type: b.type,
        title: b.title,
        content,
        allowComment: b.allowComment,
        deadline,
        meetingPlace: isMeeting ? (b.meetingPlace ?? null) : null,
        meetingTime: isMeeting && b.meetingTime ? new Date(b.meetingTime) : null,
        selectionMode: isVote ? (b.selectionMode ?? null) : null,
        reminderInterval: isVote ? (b.reminderInterval ?? null) : null,
        nextReminderAt: isVote ? new Date(publishTime.getTime() + b.reminderInterval! * unitMs) : null,
        publishTime,
        scheduledAt: later,
        recipientBlockIds: b.recipientBlockIds,
        recipientCarParkIds: b.recipientCarParkIds,
        recipientShopIds: b.recipientShopIds,
        recipientIdentities: b.recipientIdentities,
      },
      isVote ? (b.options ?? []) : [],
    );
    const recipients = await insertRecipients(tx, ctx.tenant, newId, b);
    if (recipients.length === 0) throw AppError.badRequest('announcements.errors.nobodyReached');
    const staff = await listingStaff(tx, ctx.tenant.housingEstateId);
    if (later) return newId;
    pushAfterCommit(tx, new Set([...recipients, ...staff]), {
      channelType: ChannelType.announcement,
      dataId: newId,
      action: 'published',
      type: b.type,
      title: b.title,
      name: b.title,
      messageTime: now.toISOString(),
    });
    return newId;
  });
  return getAnnouncement(ctx, id);
}

/** Revokes it: recipients' apps and the listing staff are told; 409 when it already was. */
export async function revoke(ctx: AuthedContext, id: number): Promise<AnnouncementDetailRow> {
  const a = await ownAnnouncement(ctx, id);
  await inTransaction(ctx, async (tx) => {
    if (!(await markRevoked(tx, ctx.tenant, id))) throw AppError.conflict('announcements.errors.alreadyRevoked');
    const [recipients, staff] = await Promise.all([recipientsOf(tx, id), listingStaff(tx, ctx.tenant.housingEstateId)]);
    pushAfterCommit(tx, new Set([...recipients, ...staff]), {
      channelType: ChannelType.announcement,
      dataId: id,
      action: 'revoked',
      type: a.type,
      title: a.title,
    });
  });
  return getAnnouncement(ctx, id);
}

/**
 * Hides a comment from residents, or shows it again; 404 for a comment of another estate. Every
 * staff console showing the announcement is told (its comment list reloads); the resident API
 * leaves a hidden comment out from then on.
 */
export async function hideComment(ctx: AuthedContext, id: number, hidden: boolean) {
  return inTransaction(ctx, async (tx) => {
    const c = await setCommentHidden(tx, ctx.tenant, id, hidden);
    if (!c) throw AppError.notFound();
    const staff = await listingStaff(tx, ctx.tenant.housingEstateId);
    pushAfterCommit(tx, staff, {
      channelType: ChannelType.announcement,
      dataId: c.announcementId,
      action: 'commentHidden',
      commentId: c.id,
      hidden: c.hidden,
    });
    return c.comment;
  });
}
