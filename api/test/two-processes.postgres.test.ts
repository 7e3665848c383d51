// Two api processes behind one PostgreSQL (issue 4, DESIGN §3): a resident files a complaint
// on one; staff connected to either process receive its channelType 8 push exactly once per
// connection, within a second, and the unread count of type 50 rises by one.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_AUTH, openSocket, withSearchPath } from './kit';

const root = resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  return port;
}

/** Starts `api/src/main.ts` as its own process and waits until /health answers. */
async function startProcess(databaseUrl: string, dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'api/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      API_PORT: String(port),
      API_HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: '1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`api process exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('api process did not become healthy');
}

describe('two api processes on one PostgreSQL', () => {
  const base = process.env.TEST_DATABASE_URL as string;
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'pm-two-'));
  const procs: { url: string; child: ChildProcess }[] = [];

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const url = withSearchPath(base, schema);
    // Both start together: the migration lock and the seed's "already there" check must hold.
    procs.push(...(await Promise.all([startProcess(url, join(dataDir, 'a')), startProcess(url, join(dataDir, 'b'))])));
  }, 90_000);

  afterAll(async () => {
    for (const p of procs) {
      p.child.kill('SIGTERM');
      await new Promise((r) => (p.child.exitCode !== null ? r(null) : p.child.once('exit', r)));
    }
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`drop schema if exists ${schema} cascade`);
    await c.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function login(url: string, username: string, password: string): Promise<{ token: string; personId: number }> {
    const res = await request(url)
      .post('/oauth/token')
      .set('Authorization', CLIENT_AUTH)
      .type('form')
      .send({ grant_type: 'password', username, password });
    expect(res.status).toBe(200);
    const token = res.body.access_token as string;
    const me = await request(url).get('/auth/current/user').set('Authorization', `Bearer ${token}`);
    return { token, personId: me.body.data.accountInfo.personId };
  }

  it('when a resident files on one process, then staff connections on both receive the push exactly once and unread rises by one', async () => {
    const [a, b] = procs;
    const staff = await login(b.url, 'admin', 'admin123');
    const resident = await login(a.url, 'resident1', 'resident123');
    const onA = await openSocket(a.url, staff.token, staff.personId);
    const onB = await openSocket(b.url, staff.token, staff.personId);
    try {
      const unread = async () =>
        (
          await request(b.url)
            .post('/base/message/unRead')
            .set('Authorization', `Bearer ${staff.token}`)
            .send({ messageTypeList: [50] })
        ).body.data.total as number;
      const before = await unread();
      const houses = (await request(a.url).get('/app/house/list').set('Authorization', `Bearer ${resident.token}`)).body
        .data;
      const filedAt = Date.now();
      const filed = await request(a.url)
        .post('/app/complain/save')
        .set('Authorization', `Bearer ${resident.token}`)
        .send({ name: 'Two processes', note: 'fan-out', houseType: houses[0].houseType, houseId: houses[0].houseId });
      expect(filed.status).toBe(200);
      const id = filed.body.data.complainId;
      const match = (m: Record<string, unknown>) => m.channelType === 8 && m.dataId === id;
      await Promise.all([onA.waitFor(match, 1_000), onB.waitFor(match, 1_000)]);
      expect(Date.now() - filedAt).toBeLessThan(1_500);
      // Give a duplicate time to show up before counting.
      await new Promise((r) => setTimeout(r, 300));
      expect(onA.messages.filter(match)).toHaveLength(1);
      expect(onB.messages.filter(match)).toHaveLength(1);
      expect(await unread()).toBe(before + 1);
    } finally {
      await onA.close();
      await onB.close();
    }
  });

  it('when a token is signed out on one process, then its connection on the other closes', async () => {
    const [a, b] = procs;
    const staff = await login(a.url, 'staff', 'staff123');
    const onB = await openSocket(b.url, staff.token, staff.personId);
    await request(a.url).post('/auth/signOut').set('Authorization', `Bearer ${staff.token}`);
    expect(await onB.closed).toBe(4001);
  });
});
