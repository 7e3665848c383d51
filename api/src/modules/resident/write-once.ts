// Idempotent resident writes (issue 35, docs/internal-contract.md "Resident writes are idempotent"):
// the app sends a clientId with a write; a retry with the same one (after a cut connection, a
// timeout, an api restart) answers the write already stored and writes nothing more, pushes
// included. The key is claimed inside the write's own transaction, so a write that rolls back
// leaves no claim, and two retries racing each other wait for one another on the primary key.
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/open-database';
import { residentWrite } from '../../db/schema';

export type WriteKind = 'complaint' | 'workOrder' | 'complaintReply' | 'workOrderReply' | 'sos' | 'join';

/**
 * Runs `write` once per (person, kind, clientId) inside `tx`; without a clientId it just runs.
 * A repeated key answers the stored answer of the first call.
 */
export async function writeOnce<T>(
  tx: DbOrTx,
  key: { personId: number; kind: WriteKind; clientId?: string },
  write: () => Promise<T>,
): Promise<T> {
  if (!key.clientId) return write();
  const where = and(
    eq(residentWrite.personId, key.personId),
    eq(residentWrite.kind, key.kind),
    eq(residentWrite.clientId, key.clientId),
  );
  const claimed = await tx
    .insert(residentWrite)
    .values({ personId: key.personId, kind: key.kind, clientId: key.clientId })
    .onConflictDoNothing()
    .returning({ at: residentWrite.createdAt });
  if (claimed.length === 0) {
    const [first] = await tx.select({ answer: residentWrite.answer }).from(residentWrite).where(where);
    return first.answer as T;
  }
  const answer = await write();
  await tx.update(residentWrite).set({ answer }).where(where);
  return answer;
}

/**
 * The answer stored for (person, kind, clientId), if that write committed; null otherwise (no
 * clientId, never sent, or still in flight). For what must come before the write, such as a
 * limit a resend must not use up.
 */
export async function storedAnswer<T>(
  db: DbOrTx,
  key: { personId: number; kind: WriteKind; clientId?: string },
): Promise<T | null> {
  if (!key.clientId) return null;
  const [row] = await db
    .select({ answer: residentWrite.answer })
    .from(residentWrite)
    .where(
      and(
        eq(residentWrite.personId, key.personId),
        eq(residentWrite.kind, key.kind),
        eq(residentWrite.clientId, key.clientId),
      ),
    );
  return (row?.answer as T | null | undefined) ?? null;
}
