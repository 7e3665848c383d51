import type { Db, DbOrTx } from '../../db/open-database';
import { sql } from 'drizzle-orm';
import { uploadFile } from '../../db/schema';

/** One stored upload as recorded (who uploaded what, where). */
export type NewUploadFile = typeof uploadFile.$inferInsert;

/** Records a stored upload. */
export async function insertUploadFile(db: DbOrTx, row: NewUploadFile): Promise<void> {
  await db.insert(uploadFile).values(row);
}

/** Stored keys (`<kind>/<yyyymm>/<uuid>[_thumb].<ext>`) named anywhere in a text (a path, a URL or the key). */
const NAMED_KEY =
  /(?<![a-z0-9_-])([a-z][a-z0-9_-]{0,31}\/\d{6}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:_thumb)?\.[a-z0-9]{1,5}/g;

/**
 * The stored files a text names, each as its path without the extension (`/upload/files/<kind>/
 * <yyyymm>/<uuid>`): a thumbnail (`<uuid>_thumb.jpg`) names the same upload as its original.
 */
export function uploadsNamedIn(text: string): string[] {
  return [...new Set([...text.matchAll(NAMED_KEY)].map((m) => `/upload/files/${m[1]}`))];
}

/**
 * Marks the uploads named (see {@link uploadsNamedIn}) as claimed by a saved record; the first
 * claim stays. Only unclaimed rows are looked at (a partial index holds them).
 */
export async function claimUploads(db: DbOrTx, named: readonly string[]): Promise<void> {
  if (named.length === 0) return;
  await db.execute(
    sql`update upload_file set claimed_at = now()
        where claimed_at is null and regexp_replace(path, '[.][a-z0-9]+$', '') in (${sql.join(
          named.map((p) => sql`${p}`),
          sql`, `,
        )})`,
  );
}

/**
 * The database a write call's handler uses when its body names uploads: every transaction the
 * handler opens on it claims them as its last step, so the claim commits with the saved record
 * or not at all (a save that fails leaves the upload unclaimed; a claimed upload always has its
 * record). `claimed()` tells whether a transaction of the handler committed the claim; a handler
 * that opened none (a single statement) is claimed after it answered, as before.
 */
export function claimingDb(db: Db, named: readonly string[]): { db: Db; claimed: () => boolean } {
  let committed = false;
  const claiming = Object.create(db) as Db;
  claiming.transaction = (async (work: (tx: never) => Promise<unknown>, config?: never) => {
    const value = await db.transaction(async (tx) => {
      const result = await work(tx as never);
      await claimUploads(tx, named);
      return result;
    }, config);
    committed = true;
    return value;
  }) as Db['transaction'];
  return { db: claiming, claimed: () => committed };
}
