// Roles of enterprise management (issue 30), on the feature template (work-orders.feature.test.ts):
//   1. the happy path: a role with menus, holders assigned in batch, listed, removed; a delete
//      refused while someone holds the role, then done with the holders moved in one step
//   2. its rules: a role never grants more than its editor holds, nor does a move
//   3. permission per call   4. another tenant's ids   6. bad input 400, nothing written
// (5, pushes: the holders' access change goes through accessChanged, tested in token-cache.test.ts.)
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account } from '../src/db/schema';
import {
  callerOf,
  declaredCalls,
  makeCall,
  menusOf,
  otherTenant,
  roleWith,
  rowCounts,
  signIn,
  signInResident,
  staffWithRole,
  staffWithout,
  startTestApi,
  testEngines,
  type FeatureCall,
  type ResidentSession,
  type Session,
  type TestApi,
} from './kit';

const TABLES = ['sys_role', 'sys_role_menu', 'account'] as const;

/** Every role call, with a valid body; `{id}` is a role of the estate. */
const CALLS = (personId: () => number) =>
  [
    { method: 'get', path: '/base/sysrole/list/{id}' },
    { method: 'post', path: '/base/sysrole/page', body: () => ({ page: 1, limit: 10 }) },
    {
      method: 'post',
      path: '/base/sysrole/saveorupdate',
      body: (id) => ({ roleId: id, roleName: 'Taken over', menuIds: [] }),
      record: true,
    },
    { method: 'post', path: '/base/sysrole/delete', body: (id) => ({ roleIds: [id] }), record: true },
    {
      method: 'post',
      path: '/base/sysrole/person/page',
      body: (id) => ({ roleId: id, page: 1, limit: 10 }),
      record: true,
    },
    {
      method: 'post',
      // {b} is the company: filled with the role id here, it is refused for the permission first.
      path: '/base/sysrole/saveperson/batch/{a}/{b}',
      body: () => ({ personIds: [personId()] }),
      record: true,
    },
    {
      method: 'post',
      path: '/base/sysrole/delete/person',
      body: (id) => ({ roleId: id, personIds: [personId()] }),
      record: true,
    },
    { method: 'get', path: '/base/sysmenu/all/menu/{id}', record: true },
    { method: 'post', path: '/base/sysmenu/page/v2', body: () => ({ page: 1, limit: 10 }) },
  ] as (FeatureCall & { record?: true })[];

describe.each(testEngines())('roles of enterprise management (%s)', (engine) => {
  let api: TestApi;
  let admin: Session;
  let resident: ResidentSession;
  let other: { admin: Session; staff: Session };
  let companyId: number;

  const roleOf = async (accId: number) =>
    (await api.db.select({ roleId: account.roleId }).from(account).where(eq(account.id, accId)))[0]?.roleId ?? null;
  const holders = async (roleId: number, holding = true) => {
    const res = await admin.post('/base/sysrole/person/page', { roleId, holding, page: 1, limit: 100 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.list as { accId: number; personId: number; name: string; roleName: string | null }[];
  };

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, resident, other] = await Promise.all([signIn(api, 'admin'), signInResident(api), otherTenant(api)]);
    companyId = (await admin.get(`/account/info/${admin.accId}`)).body.data.company.companyId;
  });
  afterAll(async () => api?.close());

  it('when a role is made with menus and given to persons in batch, then they hold it; deleting it is refused while held and done with the holders moved to another role', async () => {
    const menus = await menusOf(admin);
    const menuIds = menus
      .filter((m) => m.perms === 'complain:list' || m.perms === 'complain:view')
      .map((m) => m.menuId);
    const saved = await admin.post('/base/sysrole/saveorupdate', {
      roleName: 'Complaint desk',
      roleValue: 'COMPLAINT_DESK',
      menuIds,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const roleId = saved.body.data.roleId as number;
    const info = (await admin.get(`/base/sysrole/infoandmenu/${roleId}`)).body.data;
    expect([...new Set(info.menus.map((m: { perms: string }) => m.perms))].sort()).toEqual([
      'complain:list',
      'complain:view',
    ]);
    // The tree of the route table, this role's menus checked.
    interface Node {
      path: string;
      perms: string;
      checked: boolean;
      children: Node[];
    }
    const flat = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
    const tree = flat((await admin.get(`/base/sysmenu/all/menu/${roleId}`)).body.data as Node[]);
    expect(tree.find((n) => n.perms === 'complain:view')?.checked).toBe(true);
    expect(tree.find((n) => n.path === '/complaints-suggestions/index')?.checked).toBe(true);
    expect(tree.find((n) => n.path === '/announcement-management')?.checked).toBe(false);

    const other1 = await roleWith(admin, (p) => p === 'bulletin:list');
    const [a, b] = [await staffWithRole(api, admin, other1), await staffWithRole(api, admin, other1)];
    const given = await admin.post(`/base/sysrole/saveperson/batch/${roleId}/${companyId}`, {
      personIds: [a.personId, b.personId],
    });
    expect(given.body.data).toEqual({ updated: 2 });
    expect((await holders(roleId)).map((h) => h.accId).sort()).toEqual([a.accId, b.accId].sort());
    expect((await holders(roleId, false)).some((h) => h.accId === a.accId)).toBe(false);
    expect((await holders(other1, false)).find((h) => h.accId === a.accId)?.roleName).toBe('Complaint desk');
    // The holders' permissions follow at once, without signing in again.
    expect((await a.post('/complain/query/list', { page: 1, limit: 10 })).status).toBe(200);
    const row = (await admin.post('/base/sysrole/page', { keyword: 'Complaint desk' })).body.data.list[0];
    expect(row).toMatchObject({ roleId, personCount: 2 });

    const removed = await admin.post('/base/sysrole/delete/person', { roleId, personIds: [b.personId] });
    expect(removed.body.data).toEqual({ updated: 1 });
    expect(await roleOf(b.accId)).toBeNull();

    // Held: refused, in the person's language, and nothing changes.
    const rows = await rowCounts(api, TABLES);
    const refused = await admin.post('/base/sysrole/delete', { roleIds: [roleId] }).set('lang', 'en');
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe(
      'Complaint desk is still held by 1 person(s): move them to another role or take the role away from them first',
    );
    const zh = await admin.post('/base/sysrole/delete', { roleIds: [roleId] }).set('lang', 'zh-CN');
    expect(zh.body.msg).toContain('仍有 1 人持有角色');
    const toItself = await admin.post('/base/sysrole/delete', { roleIds: [roleId], moveTo: roleId });
    expect(toItself.status).toBe(409);
    expect(await rowCounts(api, TABLES)).toEqual(rows);
    expect(await roleOf(a.accId)).toBe(roleId);

    // Moved and deleted in one step: the holder keeps a session, with the new role's permissions.
    const moved = await admin.post('/base/sysrole/delete', { roleIds: [roleId], moveTo: other1 });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toEqual({ moved: 1 });
    expect(await roleOf(a.accId)).toBe(other1);
    expect((await a.post('/complain/query/list', { page: 1, limit: 10 })).status).toBe(403);
    expect((await a.post('/bulletin/list', { page: 1, limit: 10 })).status).not.toBe(401);
    expect((await admin.get(`/base/sysrole/infoandmenu/${roleId}`)).status).toBe(404);
    expect(await rowCounts(api, TABLES)).toMatchObject({ sys_role: rows.sys_role - 1 });

    // A role nobody holds is deleted without a move.
    const empty = await roleWith(admin, (p) => p === 'complain:list');
    expect((await admin.post('/base/sysrole/delete', { roleIds: [empty] })).body.data).toEqual({ moved: 0 });
  });

  it('when an editor holds fewer permissions than a role would give, then saving, giving or moving holders to it is refused (403) and nothing changes', async () => {
    const editorRole = await roleWith(admin, (p) => p === 'system:role' || p === 'complain:list');
    const editor = await staffWithRole(api, admin, editorRole);
    const menus = await menusOf(admin);
    const ids = (...perms: string[]) => menus.filter((m) => perms.includes(m.perms)).map((m) => m.menuId);

    const rows = await rowCounts(api, TABLES);
    const above = await editor
      .post('/base/sysrole/saveorupdate', { roleName: 'Too much', menuIds: ids('complain:list', 'complain:view') })
      .set('lang', 'en');
    expect(above.status).toBe(403);
    expect(above.body.msg).toContain('permissions you do not have');
    expect(await rowCounts(api, TABLES)).toEqual(rows);

    // Within reach: made, and deletable with its holder moved to a role within reach, not above it.
    const made = await editor.post('/base/sysrole/saveorupdate', { roleName: 'Within', menuIds: ids('complain:list') });
    expect(made.status).toBe(200);
    const within = made.body.data.roleId as number;
    const target = await roleWith(admin, (p) => p === 'complain:list');
    const bigger = await roleWith(admin, (p) => p.startsWith('complain:'));
    const holder = await staffWithRole(api, admin, within);
    expect((await editor.post('/base/sysrole/delete', { roleIds: [within], moveTo: bigger })).status).toBe(403);
    expect(await roleOf(holder.accId)).toBe(within);
    const done = await editor.post('/base/sysrole/delete', { roleIds: [within], moveTo: target });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await roleOf(holder.accId)).toBe(target);
    // Nor can the editor give a bigger role.
    const other2 = await staffWithRole(api, admin, target);
    expect(
      (await editor.post(`/base/sysrole/saveperson/batch/${bigger}/${companyId}`, { personIds: [other2.personId] }))
        .status,
    ).toBe(403);
    expect(await roleOf(other2.accId)).toBe(target);
  });

  it('when a caller lacks system:role, then every role call answers 403 (a resident 403, no token 401) and nothing changes', async () => {
    const roleId = await roleWith(admin, (p) => p === 'complain:list');
    const holder = await staffWithRole(api, admin, roleId);
    const calls = await declaredCalls(
      api,
      CALLS(() => holder.personId),
    );
    const lacking = await staffWithout(api, admin, 'system:role');
    const rows = await rowCounts(api, TABLES);
    for (const call of calls) {
      const what = `${call.method.toUpperCase()} ${call.path}`;
      expect(call.permission, what).toBe('system:role');
      expect((await makeCall(lacking, call, roleId)).status, `staff lacking it: ${what}`).toBe(403);
      expect((await makeCall(resident, call, roleId)).status, `resident: ${what}`).toBe(403);
      expect((await makeCall(callerOf(api, 'no-such-token'), call, roleId)).status, `no token: ${what}`).toBe(401);
    }
    expect(await rowCounts(api, TABLES)).toEqual(rows);
    expect(await roleOf(holder.accId)).toBe(roleId);
  });

  it("when another estate's staff use this estate's role ids, then every record call answers 404, lists leave it out, and nothing changes", async () => {
    const roleId = await roleWith(admin, (p) => p === 'complain:list');
    await admin.post('/base/sysrole/saveorupdate', { roleId, roleName: 'Tenant isolation', menuIds: [] });
    const holder = await staffWithRole(api, admin, roleId);
    const theirs = await roleWith(other.admin, (p) => p === 'complain:list');
    const theirHolder = await staffWithRole(api, other.admin, theirs);
    const rows = await rowCounts(api, TABLES);
    for (const call of CALLS(() => holder.personId)) {
      const res = await makeCall(other.staff, call, roleId);
      const what = `${call.method.toUpperCase()} ${call.path}`;
      if (call.record) expect([404], what).toContain(res.status);
      else expect(JSON.stringify(res.body.data ?? ''), what).not.toContain('Tenant isolation');
    }
    // Their own role, with this estate's holder or company, or moving their holders here.
    expect(
      (
        await other.admin.post(`/base/sysrole/saveperson/batch/${theirs}/${companyId}`, {
          personIds: [holder.personId],
        })
      ).status,
    ).toBe(404);
    expect((await other.admin.post('/base/sysrole/delete', { roleIds: [theirs], moveTo: roleId })).status).toBe(404);
    expect(await roleOf(theirHolder.accId)).toBe(theirs);
    expect(
      (await other.admin.post('/base/sysrole/person/page', { roleId: theirs, holding: false, limit: 100 })).body.data
        .list,
    ).not.toContainEqual(expect.objectContaining({ accId: holder.accId }));
    expect(await rowCounts(api, TABLES)).toEqual(rows);
    expect(await roleOf(holder.accId)).toBe(roleId);
  });

  it('when input is bad, then the call answers 400 with a message in the asked language and writes nothing', async () => {
    const roleId = await roleWith(admin, (p) => p === 'complain:list');
    const rows = await rowCounts(api, TABLES);
    const bad: [string, object][] = [
      ['/base/sysrole/saveorupdate', { roleName: '', menuIds: [] }],
      ['/base/sysrole/saveorupdate', { roleName: 'x', roleValue: 'has space', menuIds: [] }],
      ['/base/sysrole/saveorupdate', { roleName: 'x', menuIds: [999999] }],
      ['/base/sysrole/saveorupdate', { roleName: 'x', menuIds: 'all' }],
      ['/base/sysrole/delete', { roleIds: [] }],
      ['/base/sysrole/delete', { roleIds: [roleId], moveTo: 'other' }],
      ['/base/sysrole/delete', { roleIds: [roleId], moveTo: 0 }],
      ['/base/sysrole/person/page', { page: 1 }],
      ['/base/sysrole/person/page', { roleId, holding: 'yes' }],
      ['/base/sysrole/delete/person', { roleId, personIds: [] }],
      [`/base/sysrole/saveperson/batch/${roleId}/${companyId}`, { personIds: ['x'] }],
    ];
    for (const [path, body] of bad) {
      const res = await admin.post(path, body).set('lang', 'zh-CN');
      const what = `${path} ${JSON.stringify(body)}`;
      expect(res.status, what).toBe(400);
      expect(res.body.msg, what).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(await rowCounts(api, TABLES)).toEqual(rows);
    expect((await admin.get(`/base/sysrole/infoandmenu/${roleId}`)).status).toBe(200);
  });
});
