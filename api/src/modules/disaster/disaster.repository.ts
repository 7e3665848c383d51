import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/open-database';
import { disasterWarn, disasterWarnPerson, sosHelp } from '../../db/schema';

/** A new open SOS help call from a house; answers its id. */
export async function insertSosHelp(
  tx: DbOrTx,
  call: {
    companyId: number;
    housingEstateId: number;
    personId: number;
    houseType: number;
    unitId: number | null;
    carSpaceId: number | null;
    shopId: number | null;
    position: string | null;
  },
): Promise<number> {
  const [row] = await tx.insert(sosHelp).values(call).returning({ id: sosHelp.id });
  return row.id;
}

/** Whether a warning was revoked; null when there is no such warning. */
export async function warningRevoked(db: DbOrTx, disasterWarnId: number): Promise<boolean | null> {
  const [warn] = await db
    .select({ revoked: disasterWarn.revoked })
    .from(disasterWarn)
    .where(eq(disasterWarn.id, disasterWarnId));
  return warn ? warn.revoked : null;
}

/** Stores a recipient's answer (and reads the warning if not yet); false when the person did not receive it. */
export async function saveWarningReply(
  db: DbOrTx,
  disasterWarnId: number,
  personId: number,
  answer: { reply: number; note: string | null; at: Date },
): Promise<boolean> {
  const updated = await db
    .update(disasterWarnPerson)
    .set({
      reply: answer.reply,
      note: answer.note,
      replyTime: answer.at,
      readTime: sql`coalesce(${disasterWarnPerson.readTime}, ${answer.at.toISOString()}::timestamptz)`,
    })
    .where(and(eq(disasterWarnPerson.disasterWarnId, disasterWarnId), eq(disasterWarnPerson.personId, personId)))
    .returning({ id: disasterWarnPerson.id });
  return updated.length > 0;
}
