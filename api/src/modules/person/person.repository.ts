import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/open-database';
import { person } from '../../db/schema';
import { scopedTo } from '../../db/sql';
import type { TenantScope } from '../../http/request-context';

/** A person record as stored. */
export type PersonRow = typeof person.$inferSelect;
/** The fields of a person the profile dialog changes. */
export type PersonChanges = Partial<Pick<PersonRow, 'name' | 'gender' | 'tel' | 'images'>>;

/** A person of the caller's estate; null when missing (or another tenant's). */
export async function findPerson(db: DbOrTx, tenant: TenantScope, personId: number): Promise<PersonRow | null> {
  const [row] = await db
    .select()
    .from(person)
    .where(and(scopedTo(person, tenant), eq(person.id, personId)));
  return row ?? null;
}

/** Changes a person of the caller's estate; false when missing (or another tenant's). */
export async function updatePerson(
  db: DbOrTx,
  tenant: TenantScope,
  personId: number,
  changes: PersonChanges,
): Promise<boolean> {
  const rows = await db
    .update(person)
    .set(changes)
    .where(and(scopedTo(person, tenant), eq(person.id, personId)))
    .returning({ id: person.id });
  return rows.length > 0;
}
