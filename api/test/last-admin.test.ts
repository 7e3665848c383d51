// Issue 30: a company never loses its last enabled ADMIN account, even when two administrators
// act at once (the check runs under a per-company lock in the change's own transaction).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleWith, signIn, staffWithRole, startTestApi, testEngines, type Session, type TestApi } from './kit';

describe.each(testEngines())('the last administrator on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let adminRoleId: number;
  let plainRoleId: number;

  /** The company's enabled accounts holding an ADMIN role. */
  const admins = async (viewer: Session = admin): Promise<number[]> => {
    const list = (await viewer.post('/account/page', { page: 1, limit: 100 })).body.data.list as {
      accId: number;
      roleValue: string | null;
      enabled: boolean;
    }[];
    return list.filter((a) => a.enabled && a.roleValue?.toUpperCase().includes('ADMIN')).map((a) => a.accId);
  };

  beforeAll(async () => {
    api = await startTestApi(engine);
    admin = await signIn(api, 'admin');
    const roles = (await admin.post('/base/sysrole/page', { page: 1, limit: 100 })).body.data.list as {
      roleId: number;
      roleValue: string;
    }[];
    adminRoleId = roles.find((r) => r.roleValue === 'ADMIN')!.roleId;
    plainRoleId = await roleWith(admin, (p) => p === 'complain:list');
  });
  afterAll(async () => api?.close());

  it('when two administrators demote each other at once, then exactly one succeeds and an administrator remains', async () => {
    for (let round = 0; round < 3; round++) {
      const second = await staffWithRole(api, admin, adminRoleId);
      const first = await signIn(api, 'admin');
      expect((await admins()).length).toBe(2);
      const [a, b] = await Promise.all([
        first.get(`/account/updaterole/${second.accId}/${plainRoleId}`),
        second.get(`/account/updaterole/${first.accId}/${plainRoleId}`),
      ]);
      const statuses = [a.status, b.status].sort();
      expect(statuses[0], JSON.stringify([a.body, b.body])).toBe(200);
      expect([403, 409]).toContain(statuses[1]);
      // The one whose call passed demoted the other and is the administrator left.
      const survivor = a.status === 200 ? first : second;
      expect(await admins(survivor)).toEqual([survivor.accId]);
      // Put the seeded administrator back in charge for the next round.
      if (survivor === second) {
        expect((await survivor.get(`/account/updaterole/${admin.accId}/${adminRoleId}`)).status).toBe(200);
        admin = await signIn(api, 'admin');
      }
      expect((await admin.post('/account/delete', { accIds: [second.accId] })).status).toBe(200);
    }
  });

  it('when one of two administrators disables, demotes or deletes the other, then it succeeds while one remains, and the one left cannot remove itself', async () => {
    const second = await staffWithRole(api, admin, adminRoleId);
    expect((await second.post('/account/update', { accId: admin.accId, enabled: false })).status).toBe(200);
    expect(await admins(second)).toEqual([second.accId]);
    // The one left cannot demote itself (its own role is never its own to change).
    const self = await second.get(`/account/updaterole/${second.accId}/${plainRoleId}`).set('lang', 'zh-CN');
    expect(self.status).toBe(409);
    expect(self.body.msg).toMatch(/[\u4e00-\u9fff]/);
    expect((await second.post('/account/update', { accId: admin.accId, enabled: true })).status).toBe(200);
    admin = await signIn(api, 'admin');
    expect((await admin.get(`/account/updaterole/${second.accId}/${plainRoleId}`)).status).toBe(200);
    expect((await admin.post('/account/delete', { accIds: [second.accId] })).status).toBe(200);
    expect(await admins()).toEqual([admin.accId]);
  });
});
