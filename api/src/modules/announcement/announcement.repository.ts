import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/open-database';
import { announcement, announcementOption, announcementRead, announcementVote } from '../../db/schema';

/** An announcement as the resident's calls read it. */
export type AnnouncementRow = typeof announcement.$inferSelect;

/** An announcement of one of these estates that is still visible (not revoked); null otherwise. */
export async function visibleAnnouncement(
  db: DbOrTx,
  housingEstateIds: number[],
  id: number,
): Promise<AnnouncementRow | null> {
  const [row] = await db
    .select()
    .from(announcement)
    .where(
      and(
        eq(announcement.id, id),
        inArray(announcement.housingEstateId, housingEstateIds),
        eq(announcement.revoked, false),
      ),
    );
  return row ?? null;
}

/** Marks it read by the person (idempotent). */
export async function markAnnouncementRead(db: DbOrTx, announcementId: number, personId: number): Promise<void> {
  await db.insert(announcementRead).values({ announcementId, personId }).onConflictDoNothing();
}

/** How many of these option ids belong to the announcement. */
export async function countOwnOptions(db: DbOrTx, announcementId: number, optionIds: number[]): Promise<number> {
  const options = await db
    .select({ id: announcementOption.id })
    .from(announcementOption)
    .where(and(eq(announcementOption.announcementId, announcementId), inArray(announcementOption.id, optionIds)));
  return options.length;
}

/** Replaces the person's vote with these options and marks the announcement read, in one transaction. */
export async function replaceVote(db: DbOrTx, announcementId: number, personId: number, optionIds: number[]) {
  await db.transaction(async (tx) => {
    await tx
      .delete(announcementVote)
      .where(and(eq(announcementVote.announcementId, announcementId), eq(announcementVote.personId, personId)));
    await tx.insert(announcementVote).values(optionIds.map((optionId) => ({ announcementId, personId, optionId })));
    await markAnnouncementRead(tx, announcementId, personId);
  });
}
