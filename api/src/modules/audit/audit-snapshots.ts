import { sql } from 'drizzle-orm';
import type { DepartmentRow, StaffRow } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { queryRows } from '../../db/sql';
import type { TenantScope } from '../../http/request-context';

/**
 * What the audit trail keeps of each thing enterprise management changes: the fields a person
 * reads (names next to ids), never a password hash or a token.
 */

export interface AccountSnapshot {
  accId: number;
  username: string;
  name: string | null;
  email: string | null;
  enabled: boolean;
  roleId: number | null;
  roleName: string | null;
}

/** Accounts of the estate by id, as the trail shows them. */
export async function accountSnapshots(
  db: DbOrTx,
  tenant: TenantScope,
  accIds: number[],
): Promise<Map<number, AccountSnapshot>> {
  if (accIds.length === 0) return new Map();
  const rows = await queryRows<AccountSnapshot>(
    db,
    sql`select a.id as "accId", a.username, p.name, a.email, a.enabled, a.role_id as "roleId", r.role_name as "roleName"
        from account a left join person p on p.id = a.person_id left join sys_role r on r.id = a.role_id
        where a.company_id = ${tenant.companyId} and a.housing_estate_id = ${tenant.housingEstateId}
          and a.id in (${sql.join(
            accIds.map((id) => sql`${id}`),
            sql`, `,
          )})`,
  );
  return new Map(rows.map((r) => [r.accId, r]));
}

export async function accountSnapshot(db: DbOrTx, tenant: TenantScope, accId: number) {
  return (await accountSnapshots(db, tenant, [accId])).get(accId) ?? null;
}

/** The fields of an account event (the id is the event's entity). */
export function accountValues(a: AccountSnapshot | null) {
  if (!a) return null;
  const { accId: _id, ...rest } = a;
  return rest;
}

export interface RoleSnapshot {
  roleName: string;
  roleValue: string;
  remark: string | null;
  /** Names of the role's menus (its own rows; an ADMIN role sees every menu whatever these are). */
  menus: string[];
}

export async function roleSnapshot(db: DbOrTx, tenant: TenantScope, roleId: number): Promise<RoleSnapshot | null> {
  const [role] = await queryRows<Omit<RoleSnapshot, 'menus'>>(
    db,
    sql`select role_name as "roleName", role_value as "roleValue", remark from sys_role
        where id = ${roleId} and company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}`,
  );
  if (!role) return null;
  const menus = await queryRows<{ name: string }>(
    db,
    sql`select m.name from sys_role_menu rm join sys_menu m on m.id = rm.menu_id
        where rm.role_id = ${roleId} order by m.sort, m.id`,
  );
  return { ...role, menus: menus.map((m) => m.name) };
}

/** The role's own fields and its menus as two parts (events `role` and `role-menus`). */
export function roleParts(r: RoleSnapshot | null) {
  if (!r) return { role: null, menus: null };
  const { menus, ...role } = r;
  return { role, menus: { menus } };
}

export function staffValues(s: StaffRow | null | undefined) {
  if (!s) return null;
  return {
    staffNumber: s.staffNumber,
    name: s.name,
    gender: s.gender,
    tel: s.tel,
    position: s.position,
    yearOfBirth: s.yearOfBirth,
    departmentId: s.departmentId,
    departmentName: s.departmentName,
  };
}

export function departmentValues(d: DepartmentRow | null | undefined) {
  if (!d) return null;
  return {
    name: d.name,
    parentId: d.parentId,
    parentName: d.parentName,
    principalPersonId: d.principalPersonId,
    principalName: d.principalName,
    sort: d.sort,
  };
}
