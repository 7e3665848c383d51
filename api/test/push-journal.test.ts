// Issue 14 (items 5 and 10): every push is numbered per recipient and journaled with its change;
// an upstream connection that resumes from a number is sent what it missed, in order, each once;
// the counters the gateway reloads say which push they are as of.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import { queuePush, withPushes } from '../src/modules/message/push-outbox';
import { JOURNAL_RETENTION_MS, PushJournal } from '../src/modules/realtime';
import {
  fileComplaint as fileResidentComplaint,
  openSocket,
  refusedStatus,
  signInAll,
  startTestApi,
  testEngines,
  type Session,
  type TestApi,
  type TestSocket,
} from './kit';

describe.each(testEngines())('push journal on %s', (engine) => {
  let api: TestApi;
  let people: Record<string, Session>;
  const sockets: TestSocket[] = [];
  const counters = async (who: string) =>
    (await people[who].get('/realtime/counters')).body.data as {
      pushSeq: number;
      complaints: { untreated: number };
      unreadByType: Record<string, number>;
    };
  const open = async (who: string, query = '') => {
    const s = await openSocket(api.url, people[who].token, `${people[who].personId}${query}`);
    sockets.push(s);
    return s;
  };
  /** A push as every change sends it: queued in a transaction, journaled in it, published after the commit. */
  const push = (who: string, message: { channelType: 9; dataId: number }) =>
    withPushes(api.db, api.realtime, async (tx) => queuePush(tx, [people[who].personId], message));
  const fileComplaint = (name: string) => fileResidentComplaint(people.resident, name);

  beforeAll(async () => {
    api = await startTestApi(engine);
    people = await signInAll(api, { admin: 'admin', staff: 'staff', resident: 'resident1' });
  });
  afterAll(async () => {
    await Promise.all(sockets.map((s) => s.close()));
    await api?.close();
  });

  it('when a resident files a complaint, then the push carries the next number of each recipient and the counters are as of it', async () => {
    const live = await open('admin');
    const before = await counters('admin');
    const id = await fileComplaint('Numbered');
    const pushed = await live.waitFor((m) => m.channelType === 8 && m.dataId === id);
    expect(pushed.pushSeq).toBe(before.pushSeq + 1);
    const after = await counters('admin');
    expect(after.pushSeq).toBe(before.pushSeq + 1);
    expect(after.complaints.untreated).toBe(before.complaints.untreated + 1);
    expect(after.unreadByType['50']).toBe(before.unreadByType['50'] + 1);
    // The complaint and its push are one transaction: the journal holds the push the counters count.
    const [row] = await queryRows<{ message: { dataId: number } }>(
      api.db,
      sql`select m.message from push_journal j join push_message m on m.id = j.message_id
          where j.person_id = ${people.admin.personId} and j.seq = ${after.pushSeq}`,
    );
    expect(row.message.dataId).toBe(id);
  });

  it('when an upstream resumes from a number, then it is sent the pushes after it in order, then live ones, each once', async () => {
    const start = (await counters('staff')).pushSeq;
    for (let i = 1; i <= 3; i++) await push('staff', { channelType: 9, dataId: 500 + i });

    const resumed = await open('staff', `?after=${start}`);
    await resumed.waitFor((m) => m.dataId === 503);
    await push('staff', { channelType: 9, dataId: 504 });
    await resumed.waitFor((m) => m.dataId === 504);
    expect(resumed.messages[0]).toMatchObject({ channelType: 'heartbeat', pushSeq: start });
    const pushes = resumed.messages.filter((m) => m.channelType === 9);
    expect(pushes.map((m) => [m.dataId, m.pushSeq])).toEqual([
      [501, start + 1],
      [502, start + 2],
      [503, start + 3],
      [504, start + 4],
    ]);
  });

  it('when an upstream asks for the latest number or one the journal never reached, then it starts at the current number', async () => {
    const current = (await counters('staff')).pushSeq;
    const latest = await open('staff', '?after=latest');
    const ahead = await open('staff', `?after=${current + 1000}`);
    for (const s of [latest, ahead]) {
      const marker = await s.waitFor((m) => m.channelType === 'heartbeat');
      expect(marker.pushSeq).toBe(current);
    }
    await push('staff', { channelType: 9, dataId: 601 });
    for (const s of [latest, ahead]) {
      await s.waitFor((m) => m.dataId === 601);
      expect(s.messages.filter((m) => m.channelType === 9)).toHaveLength(1);
    }
  });

  it('when an upstream does not ask to resume, then it gets live pushes only, as before', async () => {
    // A witness upstream sees 701 arrive: the bus has handed it to this process (on PostgreSQL it
    // comes back through NOTIFY) before the plain upstream opens, so it cannot arrive live there.
    const witness = await open('staff');
    await push('staff', { channelType: 9, dataId: 701 });
    await witness.waitFor((m) => m.dataId === 701);
    const plain = await open('staff');
    await push('staff', { channelType: 9, dataId: 702 });
    await plain.waitFor((m) => m.dataId === 702);
    expect(plain.messages.filter((m) => m.channelType === 9).map((m) => m.dataId)).toEqual([702]);
    expect(plain.messages.some((m) => m.channelType === 'heartbeat')).toBe(false);
  });

  it('when a push is published directly (tests, benchmarks), then it is live only: not numbered, not replayed', async () => {
    const start = (await counters('staff')).pushSeq;
    await api.realtime.publish([people.staff.personId], { channelType: 9, dataId: 751 });
    const resumed = await open('staff', `?after=${start}`);
    await push('staff', { channelType: 9, dataId: 752 });
    await resumed.waitFor((m) => m.dataId === 752);
    expect(resumed.messages.filter((m) => m.channelType === 9).map((m) => [m.dataId, m.pushSeq])).toEqual([
      [752, start + 1],
    ]);
  });

  it('when a change rolls back, then its pushes are neither numbered nor journaled', async () => {
    const start = (await counters('staff')).pushSeq;
    await expect(
      withPushes(api.db, api.realtime, async (tx) => {
        queuePush(tx, [people.staff.personId], { channelType: 9, dataId: 761 });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await push('staff', { channelType: 9, dataId: 762 });
    const rows = await queryRows<{ seq: string; id: number }>(
      api.db,
      sql`select j.seq, (m.message->>'dataId')::int as id from push_journal j join push_message m on m.id = j.message_id
          where j.person_id = ${people.staff.personId} and j.seq > ${start}`,
    );
    expect(rows.map((r) => [Number(r.seq), r.id])).toEqual([[start + 1, 762]]);
  });

  it('when one push goes to several persons, then its text is stored once and each resumes it under their own number', async () => {
    const who = ['admin', 'staff', 'resident'];
    const starts = await Promise.all(who.map(async (w) => (await counters(w)).pushSeq));
    const textsBefore = (await queryRows<{ n: number }>(api.db, sql`select count(*)::int as n from push_message`))[0].n;
    await withPushes(api.db, api.realtime, async (tx) =>
      queuePush(
        tx,
        who.map((w) => people[w].personId),
        { channelType: 9, dataId: 901 },
      ),
    );
    const textsAfter = (await queryRows<{ n: number }>(api.db, sql`select count(*)::int as n from push_message`))[0].n;
    expect(textsAfter - textsBefore).toBe(1);
    for (const [i, w] of who.entries()) {
      const resumed = await open(w, `?after=${starts[i]}`);
      const got = await resumed.waitFor((m) => m.dataId === 901);
      expect(got.pushSeq).toBe(starts[i] + 1);
    }
  });

  it('when one push goes to several persons whose upstreams come from one gateway, then that gateway gets it once with each number, and their streams continue after it', async () => {
    // Issue 31: admin and staff as one gateway holds them (`gw`, their only upstream), the resident
    // as an app connects. The earlier tests' sockets are closed first.
    await Promise.all(sockets.splice(0).map((s) => s.close()));
    for (let waited = 0; api.realtime.connectionCount() > 0 && waited < 15_000; waited += 25)
      await new Promise((r) => setTimeout(r, 25));
    const gw = await Promise.all(['admin', 'staff'].map((w) => open(w, '?after=latest&gw=gateway-1')));
    const app = await open('resident', '?after=latest');
    const who = ['admin', 'staff', 'resident'];
    // A push of their own first: each stream has caught up and sent everything before the shared one.
    for (const [i, s] of [...gw, app].entries()) {
      await push(who[i], { channelType: 9, dataId: 940 + i });
      await s.waitFor((m) => m.dataId === 940 + i);
    }
    const seqs = await Promise.all(who.map(async (w) => (await counters(w)).pushSeq + 1));
    await withPushes(api.db, api.realtime, async (tx) =>
      queuePush(
        tx,
        who.map((w) => people[w].personId),
        { channelType: 9, dataId: 950 },
      ),
    );
    const own = await app.waitFor((m) => m.dataId === 950);
    expect(own.pushSeq).toBe(seqs[2]);
    expect(own.fanout).toBeUndefined();
    let frame: Record<string, unknown> | undefined;
    for (let waited = 0; !frame && waited < 15_000; waited += 25) {
      frame = gw.flatMap((s) => s.messages).find((m) => m.dataId === 950);
      if (!frame) await new Promise((r) => setTimeout(r, 25));
    }
    if (!frame) throw new Error('the fan-out frame did not arrive');
    expect(frame.pushSeq).toBeUndefined();
    expect(frame.fanout).toEqual([people.admin.personId, seqs[0], people.staff.personId, seqs[1]]);
    // Once for the gateway: the other upstream does not get it, nor does either get it again later.
    await push('staff', { channelType: 9, dataId: 951 });
    const next = await gw[1].waitFor((m) => m.dataId === 951);
    expect(next.pushSeq).toBe(seqs[1] + 1);
    await push('admin', { channelType: 9, dataId: 952 });
    await gw[0].waitFor((m) => m.dataId === 952);
    expect(gw.flatMap((s) => s.messages.filter((m) => m.dataId === 950))).toHaveLength(1);
    // The journal holds it for each of them, under their own number (a resuming upstream gets it).
    const resumed = await open('staff', `?after=${seqs[1] - 1}`);
    const again = await resumed.waitFor((m) => m.dataId === 950);
    expect(again.pushSeq).toBe(seqs[1]);
    expect(again.fanout).toBeUndefined();
  });

  it('when the gateway id is not letters, digits, - or _, then the upgrade is refused with 400', async () => {
    expect(await refusedStatus(api.url, people.staff.token, `${people.staff.personId}?after=latest&gw=a%20b`)).toBe(
      400,
    );
  });

  it('when the resume point is not a number, then the upgrade is refused with 400', async () => {
    expect(await refusedStatus(api.url, people.staff.token, `${people.staff.personId}?after=abc`)).toBe(400);
  });

  it('when pushes are older than the retention, then pruning removes them and keeps the newer ones', async () => {
    await push('resident', { channelType: 9, dataId: 801 });
    await api.db.execute(
      sql`with j as (update push_journal set created_at = now() - interval '1 hour' where person_id = ${people.resident.personId} returning message_id)
          update push_message set created_at = now() - interval '1 hour' where id in (select message_id from j)`,
    );
    await push('resident', { channelType: 9, dataId: 802 });
    expect(await new PushJournal(api.db).prune(JOURNAL_RETENTION_MS)).toBeGreaterThanOrEqual(1);
    const left = await queryRows<{ id: number }>(
      api.db,
      sql`select (m.message->>'dataId')::int as id from push_journal j join push_message m on m.id = j.message_id
          where j.person_id = ${people.resident.personId} order by j.seq`,
    );
    expect(left.map((r) => r.id)).toEqual([802]);
  });

  it('when the gateway asks who a token is, then it gets the person, the permission codes and the expiry', async () => {
    const res = await people.staff.get('/realtime/identity');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      personId: people.staff.personId,
      perms: expect.arrayContaining(['complain:list']),
    });
    expect(res.body.data.perms).not.toContain('disasterwarn:list');
    expect(Date.parse(res.body.data.expiresAt)).toBeGreaterThan(Date.now());
    expect((await api.http.get('/realtime/identity')).status).toBe(401);
  });
});
