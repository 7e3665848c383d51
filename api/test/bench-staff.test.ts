// Bench accounts in bulk (issue 34): the benchmarks' thousands of persons are made in a few
// multi-row inserts, and each is a real staff account — its token answers as a sign-in's would,
// its password signs in — on both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBenchStaff } from '../bench/bench-staff';
import { startTestApi, testEngines, type TestApi } from './kit';

describe.each(testEngines())('bench accounts in bulk (%s)', (engine) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(engine);
  });
  afterAll(() => api?.close());

  it('when 1,200 bench accounts are made at once, then each is its own person and its token and password work like the administrator’s', async () => {
    const staff = await createBenchStaff(api.db, 1200);
    expect(staff).toHaveLength(1200);
    expect(new Set(staff.map((s) => s.personId)).size).toBe(1200);
    expect(staff[0].username).toBe('bench0');
    expect(staff[1199].username).toBe('bench1199');
    const identity = (token: string) => api.http.get('/realtime/identity').set('authorization', `Bearer ${token}`);
    const admin = await identity(await api.login('admin', 'admin123'));
    for (const s of [staff[0], staff[999], staff[1000], staff[1199]]) {
      const me = await api.http.get('/auth/current/user').set('authorization', `Bearer ${s.token}`);
      expect(me.status).toBe(200);
      expect(me.body.data.accountInfo).toEqual({ accId: s.accountId, personId: s.personId, username: s.username });
      const seen = await identity(s.token);
      expect(seen.body.data).toMatchObject({ personId: s.personId, roleValue: admin.body.data.roleValue });
      expect(seen.body.data.perms).toEqual(admin.body.data.perms);
    }
    expect(await api.login('bench1199', 'bench123')).toEqual(expect.any(String));
  }, 120_000);
});
