import type { AnnouncementVote } from '../../../../shared/src/api/resident';
import { AppError } from '../../http/app-error';
import { estatesOf } from '../person/person-house.repository';
import type { ResidentDeps } from '../resident/resident-api';
import {
  countOwnOptions,
  markAnnouncementRead,
  replaceVote,
  visibleAnnouncement,
  type AnnouncementRow,
} from './announcement.repository';

/** The resident's side of announcements and votes (DESIGN §5). */

/** An announcement of one of the resident's estates that is still visible (not revoked); 404 otherwise. */
async function ownAnnouncement(d: ResidentDeps, id: number): Promise<AnnouncementRow> {
  const estates = await estatesOf(d.db, d.personId);
  if (estates.length === 0) throw AppError.notFound();
  const row = await visibleAnnouncement(d.db, estates, id);
  if (!row) throw AppError.notFound();
  return row;
}

/** POST /app/announcement/read (idempotent). */
export async function readAnnouncement(d: ResidentDeps, id: number): Promise<{ id: number }> {
  await ownAnnouncement(d, id);
  await markAnnouncementRead(d.db, id, d.personId);
  return { id };
}

/** POST /app/announcement/vote: replaces the resident's earlier choice; also marks the announcement read. */
export async function voteAnnouncement(
  d: ResidentDeps,
  body: AnnouncementVote,
): Promise<{ id: number; optionIds: number[] }> {
  const a = await ownAnnouncement(d, body.id);
  if (a.type !== 3) throw new AppError(400, 'resident.errors.notAVote');
  if (a.deadline && a.deadline.getTime() < Date.now()) throw new AppError(409, 'resident.errors.voteClosed');
  const optionIds = [...new Set(body.optionIds)];
  if (a.selectionMode === 1 && optionIds.length > 1) throw new AppError(400, 'resident.errors.singleChoice');
  if ((await countOwnOptions(d.db, a.id, optionIds)) !== optionIds.length)
    throw new AppError(400, 'resident.errors.voteOptionInvalid');
  await replaceVote(d.db, a.id, d.personId, optionIds);
  return { id: a.id, optionIds };
}
