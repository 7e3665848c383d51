// The verified-token cache (issue 34): a token is checked against the database once, then its
// calls cost no query, yet a sign-out, a revocation, a disabled account or a changed role or
// name reaches the very next call (token.service.ts; across api processes:
// two-processes.postgres.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerOf, roleWith, signIn, staffWithRole, startTestApi, testEngines, type TestApi } from './kit';

describe.each(testEngines())('the verified-token cache on %s', (engine) => {
  let api: TestApi;

  /** Queries the api has sent to its database so far. */
  const queries = async () =>
    (await api.metrics.queryDuration.get()).values.find((v) => v.metricName?.endsWith('_count'))?.value ?? 0;

  beforeAll(async () => {
    api = await startTestApi(engine);
  });
  afterAll(async () => api?.close());

  it('when a token was verified once, then its next current-user call sends no query to the database', async () => {
    const staff = await signIn(api, 'staff');
    const before = await queries();
    const me = await staff.get('/auth/current/user');
    expect(me.status).toBe(200);
    expect(me.body.data.accountInfo).toMatchObject({ accId: staff.accId, username: 'staff' });
    expect(await queries()).toBe(before);
  });

  it('when a session signs out, then its token is refused on the next call', async () => {
    const staff = await signIn(api, 'staff');
    expect((await staff.post('/auth/signOut')).status).toBe(200);
    const after = await staff.get('/auth/current/user');
    expect(after.status).toBe(401);
  });

  it("when an administrator disables an account, then the account's token is refused on the next call", async () => {
    const admin = await signIn(api, 'admin');
    const roleId = await roleWith(admin, (p) => p.startsWith('complain:'));
    const staff = await staffWithRole(api, admin, roleId);
    expect((await staff.post('/complain/query/list', { page: 1, limit: 10 })).status).toBe(200);
    expect((await admin.post('/account/update', { accId: staff.accId, enabled: false })).status).toBe(200);
    expect((await staff.post('/complain/query/list', { page: 1, limit: 10 })).status).toBe(401);
  });

  it("when a role loses a permission, then its holders' next call is refused with 403, and given back, allowed again", async () => {
    const admin = await signIn(api, 'admin');
    const roleId = await roleWith(admin, (p) => p.startsWith('complain:'));
    const staff = await staffWithRole(api, admin, roleId);
    const list = () => staff.post('/complain/query/list', { page: 1, limit: 10 });
    expect((await list()).status).toBe(200);
    const role = (await admin.get(`/base/sysrole/infoandmenu/${roleId}`)).body.data;
    const save = (menuIds: number[]) =>
      admin.post('/base/sysrole/saveorupdate', { roleId, roleName: role.roleName, menuIds });
    expect((await save([])).status).toBe(200);
    expect((await list()).status).toBe(403);
    expect((await save(role.menus.map((m: { menuId: number }) => m.menuId))).status).toBe(200);
    expect((await list()).status).toBe(200);
  });

  it("when a held role is deleted, then it is refused and the holder keeps working; deleted with its holders moved, the holder's next call has the new role's permissions, still signed in", async () => {
    const admin = await signIn(api, 'admin');
    const roleId = await roleWith(admin, (p) => p.startsWith('complain:'));
    const moveTo = await roleWith(admin, (p) => p.startsWith('eventorder:'));
    const staff = await staffWithRole(api, admin, roleId);
    expect((await staff.post('/complain/query/list', { page: 1, limit: 10 })).status).toBe(200);
    expect((await admin.post('/base/sysrole/delete', { roleIds: [roleId] })).status).toBe(409);
    expect((await staff.post('/complain/query/list', { page: 1, limit: 10 })).status).toBe(200);
    expect((await admin.post('/base/sysrole/delete', { roleIds: [roleId], moveTo })).status).toBe(200);
    expect((await staff.post('/complain/query/list', { page: 1, limit: 10 })).status).toBe(403);
    expect((await staff.post('/eventOrder/query/list', { page: 1, limit: 10 })).status).toBe(200);
  });

  it('when an administrator renames an account, then its current user answers the new name at once', async () => {
    const admin = await signIn(api, 'admin');
    const roleId = await roleWith(admin, (p) => p.startsWith('complain:'));
    const staff = await staffWithRole(api, admin, roleId);
    const renamed = `${staff.username}r`;
    expect((await admin.post('/account/update', { accId: staff.accId, username: renamed })).status).toBe(200);
    const me = await callerOf(api, staff.token).get('/auth/current/user');
    expect(me.body.data.accountInfo.username).toBe(renamed);
  });
});
