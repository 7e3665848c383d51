// Two api processes behind one PostgreSQL (issue 4, DESIGN §3): a resident files a complaint
// on one; staff connected to either process receive its channelType 8 push exactly once per
// connection, within a second, and the unread count of type 50 rises by one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callerOf,
  freshSchema,
  openRealtime,
  roleWith,
  signIn,
  signInResident,
  spawnApi,
  staffWithRole,
  type ApiProcess,
} from './kit';

/** Starts the api process on `databaseUrl` (seeding the demo) and waits until /health answers. */
async function startProcess(databaseUrl: string, dataDir: string): Promise<ApiProcess> {
  const api = await spawnApi({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, SEED_DEMO: '1' });
  await api.healthy();
  return api;
}

describe('two api processes on one PostgreSQL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pm-two-'));
  const procs: ApiProcess[] = [];
  let schema: Awaited<ReturnType<typeof freshSchema>>;

  beforeAll(async () => {
    schema = await freshSchema();
    // Both start together: the migration lock and the seed's "already there" check must hold.
    procs.push(
      ...(await Promise.all([
        startProcess(schema.url, join(dataDir, 'a')),
        startProcess(schema.url, join(dataDir, 'b')),
      ])),
    );
  }, 90_000);

  afterAll(async () => {
    for (const p of procs) await p.stop();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when a resident files on one process, then staff connections on both receive the push exactly once and unread rises by one', async () => {
    const [a, b] = procs;
    const staff = await signIn(b, 'admin');
    const resident = await signInResident(a, 'resident1');
    const onA = await openRealtime(a, staff);
    const onB = await openRealtime(b, staff);
    try {
      const unread = async () =>
        (await staff.post('/base/message/unRead', { messageTypeList: [50] })).body.data.total as number;
      const before = await unread();
      const filedAt = Date.now();
      const filed = await resident.post('/app/complain/save', {
        name: 'Two processes',
        note: 'fan-out',
        ...resident.house,
      });
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

  it("when a resident files on one process, then the staff's counters on the process holding their upstream count it as soon as the push reached that upstream, and on the other too", async () => {
    const [a, b] = procs;
    const staff = await signIn(b, 'admin');
    const resident = await signInResident(a, 'resident1');
    type Counters = { pushSeq: number; complaints: { untreated: number } };
    const counters = async (on: ApiProcess) => {
      const res = await callerOf(on.url, staff.token).get('/realtime/counters');
      expect(res.status).toBe(200);
      return res.body.data as Counters;
    };
    const onB = await openRealtime(b, staff);
    try {
      // B holds the upstream: its answer is kept (counters-cache.ts); A holds none and asks the database.
      const before = await counters(b);
      expect(await counters(b)).toEqual(before);
      expect(await counters(a)).toEqual(before);
      for (let i = 1; i <= 3; i++) {
        const filed = await resident.post('/app/complain/save', {
          name: `Kept ${i}`,
          note: 'counters',
          ...resident.house,
        });
        expect(filed.status).toBe(200);
        const id = filed.body.data.complainId;
        const pushed = await onB.waitFor((m) => m.channelType === 8 && m.dataId === id, 10_000);
        // Asked at once, never polled: the push reached B's upstream, so B's kept answer is gone.
        const onBNow = await counters(b);
        expect(onBNow.pushSeq).toBe(pushed.pushSeq);
        expect(onBNow.complaints.untreated).toBe(before.complaints.untreated + i);
        expect(await counters(a)).toEqual(onBNow);
      }
    } finally {
      await onB.close();
    }
  });

  it('when a token is signed out on one process, then its connection on the other closes', async () => {
    const [a, b] = procs;
    const staff = await signIn(a, 'staff');
    const onB = await openRealtime(b, staff);
    await staff.post('/auth/signOut');
    expect(await onB.closed).toBe(4001);
  });

  it('when a token is signed out on one process, then the other refuses it as soon as its socket closes', async () => {
    const [a, b] = procs;
    const staff = await signIn(a, 'staff');
    const onB = await openRealtime(b, staff);
    // B has verified (and cached) the token.
    expect((await callerOf(b.url, staff.token).get('/auth/current/user')).status).toBe(200);
    await staff.post('/auth/signOut');
    // B drops the cached token before it closes the socket (the same revocation on the bus).
    expect(await onB.closed).toBe(4001);
    expect((await callerOf(b.url, staff.token).get('/auth/current/user')).status).toBe(401);
  });

  it("when an administrator ends a wall screen's sessions on one process, then the other refuses its token at once and closes its connection", async () => {
    const [a, b] = procs;
    const admin = await signIn(a, 'admin');
    const wall = await signIn(a, 'wall');
    const onB = await openRealtime(b, wall);
    // B has verified (and cached) the token.
    expect((await callerOf(b.url, wall.token).get('/wall/feed')).status).toBe(200);
    expect((await admin.post(`/account/sessions/end/${wall.accId}`)).status).toBe(200);
    expect(await onB.closed).toBe(4001);
    expect((await callerOf(b.url, wall.token).get('/wall/feed')).status).toBe(401);
  });

  it('when a role loses a permission on one process, then the other refuses its holders once the change arrives', async () => {
    const [a, b] = procs;
    const admin = await signIn(a, 'admin');
    const roleId = await roleWith(admin, (p) => p.startsWith('complain:'));
    const staff = await staffWithRole(a, admin, roleId);
    const listOnB = () => callerOf(b.url, staff.token).post('/complain/query/list', { page: 1, limit: 10 });
    expect((await listOnB()).status).toBe(200);
    const role = (await admin.get(`/base/sysrole/infoandmenu/${roleId}`)).body.data;
    expect(
      (await admin.post('/base/sysrole/saveorupdate', { roleId, roleName: role.roleName, menuIds: [] })).status,
    ).toBe(200);
    // The change travels by NOTIFY: B answers 403 from the first call after it arrives.
    let status = 0;
    for (let i = 0; i < 100 && status !== 403; i++) {
      status = (await listOnB()).status;
      if (status !== 403) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(403);
  });
});
