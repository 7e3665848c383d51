// Roles and staff made through the api, as an administrator would: a role holding exactly some
// permissions, a staff account with it, one more permission for a demo role.
import { expect } from 'vitest';
import { signIn, type Caller, type Session, type Target } from './session';

interface Menu {
  menuId: number;
  perms: string;
}

let seq = 0;

/** The menus (one per permission code) the administrator may hand out. */
export async function menusOf(admin: Caller): Promise<Menu[]> {
  const res = await admin.post('/base/sysmenu/page/v2', { page: 1, limit: 100 });
  expect(res.status).toBe(200);
  return res.body.data.list as Menu[];
}

/** A new role of the administrator's company holding the menus whose permission passes `keep`. */
export async function roleWith(admin: Caller, keep: (permission: string) => boolean): Promise<number> {
  const roleValue = `KIT_${process.pid}_${++seq}`;
  const menuIds = (await menusOf(admin)).filter((m) => m.perms && keep(m.perms)).map((m) => m.menuId);
  const res = await admin.post('/base/sysrole/saveorupdate', { roleName: roleValue, roleValue, menuIds });
  expect(res.status).toBe(200);
  return res.body.data.roleId as number;
}

/** A new staff account of the administrator's company with `roleId`, signed in. */
export async function staffWithRole(target: Target, admin: Caller, roleId: number): Promise<Session> {
  const username = `kit${process.pid}x${++seq}`;
  const password = 'Secret123';
  const res = await admin.post('/account/update', { username, password, name: `Kit staff ${seq}`, roleId });
  expect(res.status).toBe(200);
  return signIn(target, { username, password });
}

/**
 * A new staff account holding every permission the administrator can give except `permission`,
 * and except wall:view: a wall screen hears the estate's alarms and work orders whatever else its
 * role holds (issue 22), so an account "without" a list permission has no wall either.
 */
export async function staffWithout(target: Target, admin: Caller, permission: string): Promise<Session> {
  return staffWithRole(target, admin, await roleWith(admin, (p) => p !== permission && p !== 'wall:view'));
}

/** Adds the menu carrying `permission` to the estate's role with this value (e.g. STAFF). */
export async function grantRolePermission(admin: Caller, roleValue: string, permission: string): Promise<void> {
  const roles = (await admin.post('/base/sysrole/page', { page: 1, limit: 100 })).body.data.list;
  const role = roles.find((r: { roleValue: string }) => r.roleValue === roleValue);
  const current = (await admin.get(`/base/sysrole/infoandmenu/${role.roleId}`)).body.data;
  const extra = (await menusOf(admin)).filter((m) => m.perms === permission).map((m) => m.menuId);
  const saved = await admin.post('/base/sysrole/saveorupdate', {
    roleId: role.roleId,
    roleName: current.roleName,
    menuIds: [...current.menus.map((m: { menuId: number }) => m.menuId), ...extra],
  });
  expect(saved.status).toBe(200);
}

/**
 * The second tenant of the seed (another company and estate): its administrator and, made
 * through the api, a staff account of that estate holding every permission.
 */
export async function otherTenant(target: Target): Promise<{ admin: Session; staff: Session }> {
  const admin = await signIn(target, 'admin2');
  const staff = await staffWithRole(target, admin, await roleWith(admin, () => true));
  return { admin, staff };
}
