// Who may change which accounts and roles (issue 14 item 3): a role without ADMIN cannot take
// ADMIN over within its company, whatever single permission it holds, and a resident's account
// never gets a staff role. Every refusal is a translated 403 or 409 and changes nothing.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '@pm/shared';
import { account } from '../src/db/schema';
import { signIn, startTestApi, testEngines, type Session, type TestApi } from './kit';

interface Person extends Session {
  roleId: number;
}

describe.each(testEngines())('account and role changes on %s', (engine) => {
  let api: TestApi;
  let admin: Person;
  let companyId: number;
  let menus: { menuId: number; perms: string }[];
  let staffRoleId: number;
  let seq = 0;

  async function whoIs(session: Session): Promise<Person> {
    const info = (await session.get(`/account/info/${session.accId}`)).body.data;
    return { ...session, roleId: info.role?.roleId };
  }

  /** A role (made by the administrator) holding exactly the menus of these permission codes. */
  async function roleWith(perms: string[], roleValue = `ONLY_${++seq}`): Promise<number> {
    const menuIds = menus.filter((m) => perms.includes(m.perms)).map((m) => m.menuId);
    const res = await admin.post('/base/sysrole/saveorupdate', { roleName: roleValue, roleValue, menuIds });
    expect(res.status).toBe(200);
    return res.body.data.roleId;
  }

  /** A staff account with this role, signed in. */
  async function personWith(roleId: number): Promise<Person> {
    const username = `policy${++seq}`;
    const res = await admin.post('/account/update', {
      username,
      password: 'Secret123',
      name: `Policy ${seq}`,
      roleId,
    });
    expect(res.status).toBe(200);
    return whoIs(await signIn(api, { username, password: 'Secret123' }));
  }

  async function roleIdOf(accId: number): Promise<number | null> {
    const [row] = await api.db.select({ roleId: account.roleId }).from(account).where(eq(account.id, accId));
    return row.roleId;
  }

  beforeAll(async () => {
    api = await startTestApi(engine);
    admin = await whoIs(await signIn(api, 'admin'));
    const info = (await admin.get(`/account/info/${admin.accId}`)).body.data;
    companyId = info.company.companyId;
    menus = (await admin.post('/base/sysmenu/page/v2', { page: 1, limit: 100 })).body.data.list;
    const roles = (await admin.post('/base/sysrole/page', { page: 1, limit: 100 })).body.data.list;
    staffRoleId = roles.find((r: { roleValue: string }) => r.roleValue === 'STAFF').roleId;
  });
  afterAll(async () => api?.close());

  it('when someone holding only system:account tries to make themselves or a friend ADMIN or to reset the administrator, then 409/403 and nothing changes', async () => {
    const accountRole = await roleWith(['system:account']);
    const mallory = await personWith(accountRole);
    const friend = await personWith(accountRole);

    const self = await mallory.post('/account/update', { accId: mallory.accId, roleId: admin.roleId });
    expect(self.status).toBe(409);
    expect((await mallory.get(`/account/updaterole/${mallory.accId}/${admin.roleId}`)).status).toBe(409);
    expect((await mallory.get(`/account/save/role/${mallory.personId}/${admin.roleId}`)).status).toBe(409);
    const toFriend = await mallory.post('/account/update', { accId: friend.accId, roleId: admin.roleId });
    expect(toFriend.status).toBe(403);
    expect((await mallory.get(`/account/updaterole/${friend.accId}/${admin.roleId}`)).status).toBe(403);
    const created = await mallory.post('/account/update', {
      username: `sleeper${seq}`,
      password: 'Secret123',
      name: 'Sleeper',
      roleId: admin.roleId,
    });
    expect(created.status).toBe(403);
    // A role holding more than system:account (the demo STAFF role) is out of reach too.
    expect((await mallory.post('/account/update', { accId: friend.accId, roleId: staffRoleId })).status).toBe(403);

    const reset = await mallory.get(`/account/reset/password/${admin.accId}`).set('lang', 'zh-TW');
    expect(reset.status).toBe(403);
    expect(reset.body.msg).toBe('該帳號擁有您沒有的權限，您無法修改它');
    expect((await mallory.post('/account/update', { accId: admin.accId, password: 'Owned1234' })).status).toBe(403);
    expect((await mallory.post('/account/update', { accId: admin.accId, enabled: false })).status).toBe(403);
    expect((await mallory.post('/account/delete', { accIds: [admin.accId] })).status).toBe(403);
    expect((await mallory.get(`/account/update/language/${admin.accId}/ZH_TW`)).status).toBe(403);

    expect(await roleIdOf(mallory.accId)).toBe(accountRole);
    expect(await roleIdOf(friend.accId)).toBe(accountRole);
    expect(await roleIdOf(admin.accId)).toBe(admin.roleId);
    await api.login('admin', 'admin123');

    // Within their reach it works: a peer of the same role can be reset and a new one created.
    const peerReset = await mallory.get(`/account/reset/password/${friend.accId}`);
    expect(peerReset.status).toBe(200);
    const peer = await mallory.post('/account/update', {
      username: `peer${seq}`,
      password: 'Secret123',
      name: 'Peer',
      roleId: accountRole,
    });
    expect(peer.status).toBe(200);
  });

  it('when someone holding only system:role renames their role to ADMIN, makes an ADMIN role or grants more than they hold, then 409/403 and nothing changes', async () => {
    const roleRole = await roleWith(['system:role']);
    const mallory = await personWith(roleRole);
    const friend = await personWith(await roleWith([]));
    const mine = menus.filter((m) => m.perms === 'system:role').map((m) => m.menuId);

    const rename = await mallory.post('/base/sysrole/saveorupdate', {
      roleId: roleRole,
      roleName: 'Mine',
      roleValue: 'SUPERADMIN',
      menuIds: mine,
    });
    expect(rename.status).toBe(409);
    const adminValue = await mallory.post('/base/sysrole/saveorupdate', {
      roleName: 'Sneaky',
      roleValue: 'XADMINX',
      menuIds: mine,
    });
    expect(adminValue.status).toBe(403);
    expect(adminValue.body.msg).toBe('Only an administrator can give a role a value containing ADMIN');
    const more = await mallory.post('/base/sysrole/saveorupdate', {
      roleName: 'More',
      roleValue: 'MORE',
      menuIds: menus.filter((m) => m.perms === 'complain:list').map((m) => m.menuId),
    });
    expect(more.status).toBe(403);
    expect(
      (
        await mallory.post('/base/sysrole/saveorupdate', {
          roleId: staffRoleId,
          roleName: 'Staff',
          menuIds: mine,
        })
      ).status,
    ).toBe(403);
    expect(
      (await mallory.post('/base/sysrole/saveorupdate', { roleId: admin.roleId, roleName: 'Gone', menuIds: [] }))
        .status,
    ).toBe(403);
    expect((await mallory.post('/base/sysrole/delete', { roleIds: [admin.roleId] })).status).toBe(403);
    expect(
      (
        await mallory.post(`/base/sysrole/saveperson/batch/${admin.roleId}/${companyId}`, {
          personIds: [friend.personId],
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await mallory.post(`/base/sysrole/saveperson/batch/${roleRole}/${companyId}`, {
          personIds: [mallory.personId],
        })
      ).status,
    ).toBe(409);
    expect(
      (await mallory.post('/base/sysrole/delete/person', { roleId: admin.roleId, personIds: [admin.personId] })).status,
    ).toBe(403);

    const menu = (await mallory.get(`/base/sysrole/infoandmenu/${roleRole}`)).body.data;
    expect(menu.roleValue).toBe(menu.roleName);
    expect(menu.menus.map((m: { perms: string }) => m.perms).filter(Boolean)).toEqual(['system:role']);
    expect((await mallory.post('/complain/query/list', {})).status).toBe(403);
    expect(await roleIdOf(admin.accId)).toBe(admin.roleId);

    // Within their reach: a role with their own menus, given to a person without permissions.
    const same = await mallory.post('/base/sysrole/saveorupdate', {
      roleName: 'Same',
      roleValue: 'SAME',
      menuIds: mine,
    });
    expect(same.status).toBe(200);
    const given = await mallory.post(`/base/sysrole/saveperson/batch/${same.body.data.roleId}/${companyId}`, {
      personIds: [friend.personId],
    });
    expect(given.status).toBe(200);
    expect(await roleIdOf(friend.accId)).toBe(same.body.data.roleId);
  });

  it.each(PERMISSIONS.filter((p) => p !== 'system:account' && p !== 'system:role'))(
    'when someone holding only %s tries every way to ADMIN, then 403/409 and their role stays',
    async (perm) => {
      const roleId = await roleWith([perm]);
      const mallory = await personWith(roleId);
      const attempts = [
        mallory.post('/account/update', { accId: mallory.accId, roleId: admin.roleId }),
        mallory.get(`/account/updaterole/${mallory.accId}/${admin.roleId}`),
        mallory.get(`/account/save/role/${mallory.personId}/${admin.roleId}`),
        mallory.get(`/account/reset/password/${admin.accId}`),
        mallory.post('/base/sysrole/saveorupdate', { roleId, roleName: 'x', roleValue: 'ADMIN', menuIds: [] }),
        mallory.post(`/base/sysrole/saveperson/batch/${admin.roleId}/${companyId}`, {
          personIds: [mallory.personId],
        }),
      ];
      for (const res of await Promise.all(attempts)) {
        expect([403, 409]).toContain(res.status);
        expect(res.body.msg).toBeTruthy();
      }
      expect(await roleIdOf(mallory.accId)).toBe(roleId);
      const menu = (await mallory.get(`/base/sysrole/infoandmenu/${roleId}`)).body.data;
      expect(menu.roleValue).not.toMatch(/ADMIN/);
    },
  );

  it("when a resident's account is given a staff role, then 409; a role a resident got earlier gives no console access and can be taken away", async () => {
    const resident = await whoIs(await signIn(api, 'resident3'));
    const res1 = await admin.get(`/account/save/role/${resident.personId}/${staffRoleId}`).set('lang', 'zh-CN');
    expect(res1.status).toBe(409);
    expect(res1.body.msg).toBe('住户账号不能获得员工角色');
    expect((await admin.get(`/account/updaterole/${resident.accId}/${staffRoleId}`)).status).toBe(409);
    expect((await admin.post('/account/update', { accId: resident.accId, roleId: staffRoleId })).status).toBe(409);
    expect(
      (
        await admin.post(`/base/sysrole/saveperson/batch/${staffRoleId}/${companyId}`, {
          personIds: [resident.personId],
        })
      ).status,
    ).toBe(409);
    expect(await roleIdOf(resident.accId)).toBeNull();

    // As the review left it: a resident account holding the staff role.
    await api.db.update(account).set({ roleId: staffRoleId }).where(eq(account.id, resident.accId));
    expect((await resident.post('/complain/query/list', {})).status).toBe(403);
    const undo = await admin.post('/base/sysrole/delete/person', {
      roleId: staffRoleId,
      personIds: [resident.personId],
    });
    expect(undo.status).toBe(200);
    expect(undo.body.data.updated).toBe(1);
    expect(await roleIdOf(resident.accId)).toBeNull();
  });

  it('when the administrator changes their own role or deletes it, then 409; other accounts they may change', async () => {
    expect((await admin.get(`/account/updaterole/${admin.accId}/${staffRoleId}`)).status).toBe(409);
    expect((await admin.post('/base/sysrole/delete', { roleIds: [admin.roleId] })).status).toBe(409);
    expect(
      (
        await admin.post('/base/sysrole/saveorupdate', {
          roleId: admin.roleId,
          roleName: 'Admins',
          roleValue: 'STAFF',
          menuIds: [],
        })
      ).status,
    ).toBe(409);
    const other = await personWith(await roleWith(['complain:list']));
    expect((await admin.get(`/account/updaterole/${other.accId}/${staffRoleId}`)).status).toBe(200);
    expect((await admin.get(`/account/reset/password/${other.accId}`)).status).toBe(200);
  });
});
