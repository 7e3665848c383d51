// A production database starts without the demo accounts (issue 14 item 11, compose topology):
// the first administrator — company, estate, ADMIN role with every menu — comes from
// ADMIN_USERNAME / ADMIN_PASSWORD, once, and only while the database has no account.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { count, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '@pm/shared';
import { queryRows } from '../src/db/sql';
import { account, sysMenu } from '../src/db/schema';
import { ensureFirstAdmin, firstAdminProblem } from '../src/seed/first-admin';
import { requestToken, signIn, startTestApi, testEngines, type TestApi } from './kit';

const root = resolve(import.meta.dirname, '../..');

describe.each(testEngines())('the first administrator on %s', (engine) => {
  let api: TestApi;
  const admin = {
    username: 'boss',
    password: 'Harbour-2026',
    companyName: 'Acme Property',
    estateName: 'Acme Court',
    timeZone: 'Europe/Lisbon',
  };

  beforeAll(async () => {
    api = await startTestApi(engine, { seed: false, firstAdmin: admin });
  });
  afterAll(async () => api?.close());

  const tokenCall = (username: string, password: string) => requestToken(api, { username, password });

  it('when the database had no account, then the configured administrator signs in with role ADMIN holding every menu, and no demo account exists', async () => {
    const boss = await signIn(api, admin);
    const info = await boss.get(`/account/info/${boss.accId}`);
    expect(info.status).toBe(200);
    expect(info.body.data.role.roleValue).toBe('ADMIN');
    expect(info.body.data.personCompany.person.personId).toBe(boss.personId);
    const role = await boss.get(`/base/sysrole/infoandmenu/${info.body.data.role.roleId}`);
    const [{ n }] = await api.db.select({ n: count() }).from(sysMenu);
    expect(n).toBeGreaterThan(0);
    expect(role.body.data.menus).toHaveLength(n);
    const perms = new Set(role.body.data.menus.map((m: { perms: string }) => m.perms));
    for (const code of PERMISSIONS) expect(perms, code).toContain(code);
    const [estate] = await queryRows<{ company: string; estate: string }>(
      api.db,
      sql`select c.name as company, e.name as estate from housing_estate e join company c on c.id = e.company_id`,
    );
    expect(estate).toEqual({ company: 'Acme Property', estate: 'Acme Court' });
    for (const demo of ['admin', 'staff', 'resident1', 'admin2'])
      expect((await tokenCall(demo, demo === 'staff' ? 'staff123' : 'admin123')).status, demo).toBe(401);
  });

  it('when ADMIN_TIME_ZONE names a zone, then the estate counts its days there and the session says so; an unknown zone is refused', async () => {
    const boss = await signIn(api, admin);
    const info = await boss.get(`/account/info/${boss.accId}`);
    expect(info.body.data.company.timeZone).toBe('Europe/Lisbon');
    expect(firstAdminProblem({ username: 'boss', password: 'Harbour-2026', timeZone: 'Mars/Olympus' })).toMatch(
      /ADMIN_TIME_ZONE/,
    );
    expect(firstAdminProblem({ username: 'boss', password: 'Harbour-2026', timeZone: 'Asia/Hong_Kong' })).toBeNull();
  });

  it('when accounts exist, then other ADMIN_* values create nothing', async () => {
    expect(await ensureFirstAdmin(api.db, { username: 'intruder', password: 'whatever1' })).toBe('accounts exist');
    expect((await tokenCall('intruder', 'whatever1')).status).toBe(401);
    const [{ n }] = await api.db.select({ n: count() }).from(account);
    expect(n).toBe(1);
  });

  it('when neither the demo nor an administrator is configured, then the database stays without accounts but has its menus', async () => {
    const bare = await startTestApi(engine, { seed: false });
    try {
      const [{ n }] = await bare.db.select({ n: count() }).from(account);
      expect(n).toBe(0);
      const [{ m }] = await bare.db.select({ m: count() }).from(sysMenu);
      expect(m).toBeGreaterThan(0);
    } finally {
      await bare.close();
    }
  });
});

describe('ADMIN_* variables', () => {
  it('when only one of ADMIN_USERNAME / ADMIN_PASSWORD is set or the password is too short, then the api refuses to start with one line', () => {
    for (const extra of [{ ADMIN_USERNAME: 'boss' }, { ADMIN_USERNAME: 'boss', ADMIN_PASSWORD: '123' }]) {
      const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'api/src/main.ts')], {
        cwd: root,
        env: { ...process.env, ...extra, API_PORT: '0', DATA_DIR: join(root, 'data-never-created'), LOG_LEVEL: 'warn' },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(r.status).toBe(1);
      expect(r.stderr.trim().split('\n')).toEqual(['ADMIN_PASSWORD must be 6–32 characters']);
    }
  });
});
