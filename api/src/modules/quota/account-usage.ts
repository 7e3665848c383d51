import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/open-database';
import { queryRows } from '../../db/sql';
import { accountUsage } from '../../db/schema';

/**
 * Per-account limits over sliding windows (issue 14: invite-code joins, wrong codes, upload
 * bytes). Each use is a row of `account_usage`; the database counts, so every api instance
 * sees the same totals.
 */

/** At most `max` (a count or bytes) within the last `windowMs`. */
export interface UsageLimit {
  windowMs: number;
  max: number;
}

/** What is counted: one name per limited thing. */
export type UsageKind = 'invite-join' | 'invite-wrong-code' | 'upload-bytes';

export type Reservation =
  | { ok: true; id: number }
  | {
      ok: false;
      /** The limit that would be passed. */
      limit: UsageLimit;
      /** When the oldest counted use leaves that window (a hint for Retry-After). */
      retryAfterSeconds: number;
    };

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/**
 * Counts `amount` of `kind` for the account if every limit still holds with it; otherwise
 * nothing is counted and the answer names the limit. Check and count run in one transaction
 * holding an advisory lock on (kind, account), so concurrent calls are counted one after the
 * other: exactly as many pass as the limit allows, on PGlite and PostgreSQL.
 */
export async function reserveUsage(
  db: Db,
  accountId: number,
  kind: UsageKind,
  amount: number,
  limits: UsageLimit[],
): Promise<Reservation> {
  const longestSeconds = Math.max(...limits.map((l) => l.windowMs)) / 1000;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`usage:${kind}`}), ${accountId})`);
    // What no window looks at any more is forgotten.
    await tx.execute(
      sql`delete from account_usage where account_id = ${accountId} and kind = ${kind}
          and at < now() - make_interval(secs => ${longestSeconds})`,
    );
    for (const limit of limits) {
      const seconds = limit.windowMs / 1000;
      const [used] = await queryRows<{ total: string | number; wait: number | null }>(
        tx,
        sql`select coalesce(sum(amount), 0) as total,
                   extract(epoch from (min(at) + make_interval(secs => ${seconds}) - now()))::float8 as wait
            from account_usage
            where account_id = ${accountId} and kind = ${kind} and at > now() - make_interval(secs => ${seconds})`,
      );
      if (Number(used.total) + amount > limit.max) {
        return { ok: false as const, limit, retryAfterSeconds: Math.max(1, Math.ceil(used.wait ?? seconds)) };
      }
    }
    const [row] = await tx.insert(accountUsage).values({ accountId, kind, amount }).returning({ id: accountUsage.id });
    return { ok: true as const, id: row.id };
  });
}

/** Sets what a reservation really used (the bytes received; 0 when a guessed code was right). */
export async function settleUsage(db: DbOrTx, reservationId: number, amount: number): Promise<void> {
  await db.update(accountUsage).set({ amount }).where(eq(accountUsage.id, reservationId));
}
