import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/open-database';
import { queryRows } from '../../db/sql';
import { staffWithPermission } from '../realtime/recipients';

/** Who is told of SOS calls and disaster warnings (SPEC §6). */

/** An SOS help call → staff with disasterwarn:list, and the estate's wall screens (wall:view, issue 22). */
export const sosStaff = (db: DbOrTx, housingEstateId: number): Promise<number[]> =>
  withWallScreens(db, housingEstateId, staffWithPermission(db, housingEstateId, 'disasterwarn:list'));

/** The estate's wall-screen accounts (wall:view) added to other recipients, each person once. */
async function withWallScreens(db: DbOrTx, housingEstateId: number, others: Promise<number[]>): Promise<number[]> {
  const staff = await others;
  const walls = await staffWithPermission(db, housingEstateId, 'wall:view');
  return [...new Set([...staff, ...walls])];
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
  withWallScreens(db, housingEstateId, staffWithPermission(db, housingEstateId, 'disasterwarn:list'));

/** A disaster declaration (new or handled) → staff with disasterreport:list. */
export const declarationStaff = (db: DbOrTx, housingEstateId: number): Promise<number[]> =>
  staffWithPermission(db, housingEstateId, 'disasterreport:list');
