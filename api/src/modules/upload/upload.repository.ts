import type { DbOrTx } from '../../db/open-database';
import { uploadFile } from '../../db/schema';

/** One stored upload as recorded (who uploaded what, where). */
export type NewUploadFile = typeof uploadFile.$inferInsert;

/** Records a stored upload. */
export async function insertUploadFile(db: DbOrTx, row: NewUploadFile): Promise<void> {
  await db.insert(uploadFile).values(row);
}
