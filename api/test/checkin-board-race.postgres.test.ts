// The duty board's stored rows against a rule change of today (issue 32), made certain on
// PostgreSQL: a rule change is in progress (a rival transaction holds the board's estate lock and
// changes the guard's rule) when a board read finds the guard's row stale. The read must wait for
// the change and compute the row with the new rule; before the lock, it computed with the rule it
// could see and stored that row after the change had committed, where it stayed until the next
// shift start or end.
import pg from 'pg';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localNow, ruleNow, signIn, startTestApi, type Session, type TestApi } from './kit';
import { checkinToday } from '../src/db/schema';

describe('a board read during a rule change of today on postgres', () => {
  let api: TestApi;
  let admin: Session;
  let guard: Session;
  let rival: pg.Client;

  beforeAll(async () => {
    api = await startTestApi('postgres');
    [admin, guard] = await Promise.all([signIn(api, 'admin'), signIn(api, 'staff')]);
    // The api's own database (a copy of the run's template): a second connection to its rows.
    rival = new pg.Client({ connectionString: api.databaseUrl });
    await rival.connect();
  });
  afterAll(async () => {
    await rival?.end();
    await api?.close();
  });

  const storedStart = async () =>
    (await api.db.select().from(checkinToday).where(eq(checkinToday.personId, guard.personId)))[0]?.startAt?.getTime();

  it('when the board is read while a rule of today is being changed, then it stores the row of the new rule', async () => {
    // The guard's own rule from today: one shift starting now, eight hours.
    const saved = await admin.post('/base/checkin/rule/save', ruleNow({ personId: guard.personId }));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await admin.get('/base/checkin/board')).status).toBe(200);
    const before = await storedStart();
    expect(before).toBeDefined();
    // The guard's row is past its next change: the next read computes it again.
    await api.db
      .update(checkinToday)
      .set({ validUntil: new Date(Date.now() - 1000) })
      .where(eq(checkinToday.personId, guard.personId));

    // The rival: a rule change of today in progress, holding the board's lock of the estate.
    const { rows } = await rival.query(
      `select housing_estate_id as "estateId" from checkin_rule_version where id = $1`,
      [saved.body.data.ruleId],
    );
    await rival.query('begin');
    await rival.query(`select pg_advisory_xact_lock(hashtext('checkin_today'), $1::int)`, [rows[0].estateId]);
    let settled = false;
    const read = Promise.resolve(admin.get('/base/checkin/board')).finally(() => (settled = true));
    // Until the read waits on the lock (or, without it, has answered already).
    for (let i = 0; i < 500 && !settled; i++) {
      const waiting = await rival.query(
        `select 1 from pg_locks where locktype = 'advisory' and not granted and pid <> pg_backend_pid()`,
      );
      if (waiting.rows.length) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await rival.query(`update checkin_rule_version set shifts = $1::jsonb where id = $2`, [
      JSON.stringify([{ start: localNow(3).clock, end: localNow(11).clock }]),
      saved.body.data.ruleId,
    ]);
    await rival.query('commit');
    expect((await read).status).toBe(200);

    // The stored row is the new rule's shift, not the one the read could see before the change.
    const after = await storedStart();
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
  });
});
