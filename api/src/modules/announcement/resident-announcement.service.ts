import { AnnouncementType, ChannelType, SelectionMode, type AnnouncementVote } from '@pm/shared';
import { AppError } from '../../http/app-error';
import { pushAfterCommit } from '../message/notify';
import { withPushes } from '../message/push-outbox';
import type { ResidentDeps } from '../resident/resident-api';
import { listingStaff } from './announcement.recipients';
import {
  countOwnOptions,
  insertComment,
  listComments,
  markAnnouncementRead,
  receivedAnnouncement,
  receivedAnnouncements,
  replaceVote,
  type AnnouncementRecord,
} from './announcement.repository';

/** The resident's side of announcements and votes (DESIGN §5): list, read, vote. */

/** An announcement sent to the resident; 404 when it was not (or does not exist). */
async function sentToMe(d: ResidentDeps, id: number): Promise<AnnouncementRecord> {
  const row = await receivedAnnouncement(d.db, d.personId, id);
  if (!row) throw AppError.notFound();
  return row;
}

/** GET /app/announcement/list: the announcements sent to the resident, not revoked. */
export function listMine(d: ResidentDeps) {
  return receivedAnnouncements(d.db, d.personId);
}

/** Tells the estate's staff who list announcements that its read results moved (their pie charts follow). */
function tellStaff(tx: Parameters<typeof pushAfterCommit>[0], a: AnnouncementRecord, action: 'read' | 'voted') {
  return listingStaff(tx, a.housingEstateId).then((staff) =>
    pushAfterCommit(tx, staff, { channelType: ChannelType.announcement, dataId: a.id, action, type: a.type }),
  );
}

/** POST /app/announcement/read (idempotent); a revoked one is no longer visible (404). */
export async function readAnnouncement(d: ResidentDeps, id: number): Promise<{ id: number }> {
  const a = await sentToMe(d, id);
  if (a.revoked) throw AppError.notFound();
  await withPushes(d.db, d.realtime, async (tx) => {
    if (await markAnnouncementRead(tx, id, d.personId)) await tellStaff(tx, a, 'read');
  });
  return { id };
}

/**
 * POST /app/announcement/vote: replaces the resident's earlier choice and marks it read. Refused
 * with a clear message when it is not a vote, revoked (409), past its deadline (409), or the
 * options do not fit (one only for single choice, options of this vote only).
 */
export async function voteAnnouncement(
  d: ResidentDeps,
  body: AnnouncementVote,
): Promise<{ id: number; optionIds: number[] }> {
  const a = await sentToMe(d, body.id);
  if (a.type !== AnnouncementType.vote) throw new AppError(400, 'resident.errors.notAVote');
  if (a.revoked) throw new AppError(409, 'announcements.errors.voteRevoked');
  if (a.deadline && a.deadline.getTime() < Date.now()) throw new AppError(409, 'resident.errors.voteClosed');
  const optionIds = [...new Set(body.optionIds)];
  if (a.selectionMode === SelectionMode.single && optionIds.length > 1)
    throw new AppError(400, 'resident.errors.singleChoice');
  if ((await countOwnOptions(d.db, a.id, optionIds)) !== optionIds.length)
    throw new AppError(400, 'resident.errors.voteOptionInvalid');
  await withPushes(d.db, d.realtime, async (tx) => {
    await replaceVote(tx, a.id, d.personId, optionIds);
    await tellStaff(tx, a, 'voted');
  });
  return { id: a.id, optionIds };
}

/** GET /app/announcement/comments/{id}: the comments residents see. */
export async function commentsOf(d: ResidentDeps, id: number) {
  const a = await sentToMe(d, id);
  if (a.revoked) throw AppError.notFound();
  return listComments(d.db, a.id, true);
}

/** POST /app/announcement/comment: only where comments are allowed and not on a revoked one (409). */
export async function comment(d: ResidentDeps, body: { id: number; content: string }) {
  const a = await sentToMe(d, body.id);
  if (a.revoked) throw new AppError(409, 'announcements.errors.revoked');
  if (!a.allowComment) throw new AppError(409, 'announcements.errors.commentsClosed');
  // Staff consoles showing the announcement add the comment at once (their list reloads).
  return withPushes(d.db, d.realtime, async (tx) => {
    const c = await insertComment(tx, a.id, d.personId, body.content);
    const staff = await listingStaff(tx, a.housingEstateId);
    pushAfterCommit(tx, staff, {
      channelType: ChannelType.announcement,
      dataId: a.id,
      action: 'commented',
      commentId: c.id,
    });
    return c;
  });
}
