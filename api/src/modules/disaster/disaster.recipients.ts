import { sql } from 'drizzle-orm';
import { SOS_RECIPIENT_PERMISSIONS, type Permission } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { queryRows } from '../../db/sql';
import { staffWithPermission } from '../realtime/recipients';

/** Who is told of SOS calls and disaster warnings (SPEC §6). */

/** An SOS help call → staff with disasterwarn:list, and the estate's wall screens (wall:view, issue 22). */
export const sosStaff = (db: DbOrTx, housingEstateId: number): Promise<number[]> =>
  staffWithAny(db, housingEstateId, SOS_RECIPIENT_PERMISSIONS);

/** Staff of the estate with any of the permissions, each person once. */
async function staffWithAny(
  db: DbOrTx,
  housingEstateId: number,
  permissions: readonly Permission[],
): Promise<number[]> {
  const people = new Set<number>();
  for (const permission of permissions)
    for (const id of await staffWithPermission(db, housingEstateId, permission)) people.add(id);
  return [...people];
}

/**
 * A disaster warning → every management-committee and management-office staff member of the
 * estate (SPEC §6), whatever their role.
 */
export async function disasterWarningStaff(db: DbOrTx, housingEstateId: number): Promise<number[]> {
  const rows = await queryRows<{ person_id: number }>(
    db,
    sql`select distinct a.person_id
        from account a
        join person_company pc on pc.person_id = a.person_id and pc.company_id = a.company_id
        where a.housing_estate_id = ${housingEstateId} and a.kind = 'staff' and a.enabled
          and pc.company_type in (1, 2)`,
  );
  return rows.map((r) => r.person_id);
}

/** Staff who follow warnings live (their replies, help requests handled): disasterwarn:list, and wall screens. */
export const warningFollowers = (db: DbOrTx, housingEstateId: number): Promise<number[]> =>
  staffWithAny(db, housingEstateId, SOS_RECIPIENT_PERMISSIONS);

/** A disaster declaration (new or handled) → staff with disasterreport:list. */
export const declarationStaff = (db: DbOrTx, housingEstateId: number): Promise<number[]> =>
  staffWithPermission(db, housingEstateId, 'disasterreport:list');
