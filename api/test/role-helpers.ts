// Test setup: give a demo role one more permission (its button menu), through the api as the
// administrator would.
import { expect } from 'vitest';
import type { TestApi } from './start-test-api';

/** Adds the menu carrying `permission` to the estate's role with this value (e.g. STAFF). */
export async function grantRolePermission(
  api: TestApi,
  adminToken: string,
  roleValue: string,
  permission: string,
): Promise<void> {
  const auth = { Authorization: `Bearer ${adminToken}` };
  const roles = (await api.http.post('/base/sysrole/page').set(auth).send({ page: 1, limit: 100 })).body.data.list;
  const role = roles.find((r: { roleValue: string }) => r.roleValue === roleValue);
  const current = (await api.http.get(`/base/sysrole/infoandmenu/${role.roleId}`).set(auth)).body.data;
  const menus = (await api.http.post('/base/sysmenu/page/v2').set(auth).send({ page: 1, limit: 100 })).body.data.list;
  const extra = menus.filter((m: { perms: string }) => m.perms === permission).map((m: { menuId: number }) => m.menuId);
  const saved = await api.http
    .post('/base/sysrole/saveorupdate')
    .set(auth)
    .send({
      roleId: role.roleId,
      roleName: current.roleName,
      menuIds: [...current.menus.map((m: { menuId: number }) => m.menuId), ...extra],
    });
  expect(saved.status).toBe(200);
}
