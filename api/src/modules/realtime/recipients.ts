import { sql } from 'drizzle-orm';
import { ADMIN_ROLE, type Permission } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { queryRows } from '../../db/sql';

/**
 * Who receives which push (SPEC §6, §7): every module that notifies asks here, so the rules
 * live in one place. All functions answer person ids of one housing estate.
 */

/** Enabled staff accounts of the estate whose role grants the permission (role ADMIN grants all). */
export async function staffWithPermission(
  db: DbOrTx,
  housingEstateId: number,
  permission: Permission,
): Promise<number[]> {
  const rows = await queryRows<{ person_id: number }>(
    db,
    sql`select distinct a.person_id
        from account a
        join sys_role r on r.id = a.role_id
        where a.housing_estate_id = ${housingEstateId} and a.kind = 'staff' and a.enabled
          and (upper(r.role_value) like ${`%${ADMIN_ROLE}%`}
               or exists (select 1 from sys_role_menu rm join sys_menu m on m.id = rm.menu_id
                          where rm.role_id = r.id and m.perms = ${permission}))`,
  );
  return rows.map((r) => r.person_id);
}

/** New complaint → staff with complain:list. */
export const complaintStaff = (db: DbOrTx, housingEstateId: number) =>
  staffWithPermission(db, housingEstateId, 'complain:list');
/** New work order → staff with eventorder:list. */
export const eventOrderStaff = (db: DbOrTx, housingEstateId: number) =>
  staffWithPermission(db, housingEstateId, 'eventorder:list');
/** SOS help call → staff with disasterwarn:list. */
export const sosStaff = (db: DbOrTx, housingEstateId: number) =>
  staffWithPermission(db, housingEstateId, 'disasterwarn:list');

/** Join / leave of a house → staff with that house type's list permission. */
export function houseStaff(db: DbOrTx, housingEstateId: number, houseType: number): Promise<number[]> {
  const permission: Permission = houseType === 2 ? 'carpark:list' : houseType === 3 ? 'shop:list' : 'unit:list';
  return staffWithPermission(db, housingEstateId, permission);
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

/**
 * A resident's reply → the staff handling the request (who dealt with or completed it); while
 * nobody has taken it yet, every staff member who lists such requests.
 */
export async function handlingStaff(db: DbOrTx, kind: 'complaint' | 'eventOrder', id: number): Promise<number[]> {
  const rows =
    kind === 'complaint'
      ? await queryRows<{ housing_estate_id: number; deal: number | null; complete: number | null }>(
          db,
          sql`select housing_estate_id, person_deal_id as deal, person_complete_id as complete from complain where id = ${id}`,
        )
      : await queryRows<{ housing_estate_id: number; deal: number | null; complete: number | null }>(
          db,
          sql`select housing_estate_id, person_deal_id as deal, person_complete_id as complete from event_order where id = ${id}`,
        );
  if (rows.length === 0) return [];
  const handlers = [rows[0].deal, rows[0].complete].filter((p): p is number => p !== null);
  if (handlers.length > 0) return [...new Set(handlers)];
  return kind === 'complaint'
    ? complaintStaff(db, rows[0].housing_estate_id)
    : eventOrderStaff(db, rows[0].housing_estate_id);
}

/** Chat → the group's current members. */
export async function chatGroupMembers(db: DbOrTx, groupId: number): Promise<number[]> {
  const rows = await queryRows<{ person_id: number }>(
    db,
    sql`select person_id from im_group_member where group_id = ${groupId} and quit_at is null`,
  );
  return rows.map((r) => r.person_id);
}
