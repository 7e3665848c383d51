import type { DbOrTx } from '../../db/open-database';
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
export async function claimUploads(db: DbOrTx, named: string[]): Promise<void> {
  if (named.length === 0) return;
  await db.execute(
    sql`update upload_file set claimed_at = now()
        where claimed_at is null and regexp_replace(path, '[.][a-z0-9]+$', '') in (${sql.join(
          named.map((p) => sql`${p}`),
          sql`, `,
        )})`,
  );
}
