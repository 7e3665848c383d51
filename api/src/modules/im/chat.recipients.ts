import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/open-database';
import { queryRows } from '../../db/sql';

/** Chat → the group's current members. */
export async function chatGroupMembers(db: DbOrTx, groupId: number): Promise<number[]> {
  const rows = await queryRows<{ person_id: number }>(
    db,
    sql`select person_id from im_group_member where group_id = ${groupId} and quit_at is null`,
  );
  return rows.map((r) => r.person_id);
}
