// Staff check-in (issue 32): the open days (yesterday and today) are computed once and kept
// (checkin_open_day) until something they came from changes. These tests tamper with one stored
// shift to see whether a read computed the day again: a repeated read does not; a punch and an
// approved make-up recompute their own person only; a rule, a holiday or time passing a shift's
// start or end computes every staff member's day again. The duty board's stored rows
// (checkin_today) likewise: read as stored, computed again when of another day or past their next
// change, written by a punch in its transaction; a punch deleted by hand forgets both.
import { and, eq, gte, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestApi, testEngines, type Session, type TestApi, localNow, addDays, GATE, ruleNow } from './kit';
import { checkinDay, checkinOpenDay, checkinPunch, checkinToday } from '../src/db/schema';

let keySeq = 0;
const punchBody = (kind: 'in' | 'out') => ({
  kind,
  lat: GATE.lat + 0.0005,
  lng: GATE.lng,
  accuracyMetres: 8,
  deviceId: 'phone-1',
  idempotencyKey: `open-${process.pid}-${++keySeq}-${Date.now()}`,
});

describe.each(testEngines())('check-in open days kept until they change, on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let guard: Session;
  let today: string;

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, guard] = await Promise.all([signIn(api, 'admin'), signIn(api, 'staff')]);
  });
  afterAll(async () => api?.close());

  /** A marker written into a stored shift of today: still there after a read = not computed again. */
  const tamper = (s: Session) =>
    api.db
      .update(checkinDay)
      .set({ earlyMinutes: 777 })
      .where(and(eq(checkinDay.personId, s.personId), eq(checkinDay.day, today)));
  const stored = async (s: Session) =>
    (
      await api.db
        .select()
        .from(checkinDay)
        .where(and(eq(checkinDay.personId, s.personId), eq(checkinDay.day, today)))
    )[0];
  const openDay = async () => (await api.db.select().from(checkinOpenDay).where(eq(checkinOpenDay.day, today)))[0];
  /** No seeded shift of the demo staff changes state by time within the hour (so only what a step does counts). */
  const holdForAnHour = () => api.db.update(checkinOpenDay).set({ validUntil: new Date(Date.now() + 3_600_000) });
  const readDays = async () => {
    const res = await admin.post('/base/checkin/day/page', { startDate: today, endDate: today });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it('when the open days are read again, a punch and an approved make-up recompute their person only, and a rule, a holiday or time passing recomputes everyone', async () => {
    today = localNow().day;
    // Both start without the seed's recent punches (the seed punches staff up to now), on a rule of their own.
    for (const s of [admin, guard]) {
      await api.db
        .delete(checkinPunch)
        .where(and(eq(checkinPunch.personId, s.personId), gte(checkinPunch.at, new Date(Date.now() - 2 * 86_400_000))));
      const saved = await admin.post('/base/checkin/rule/save', ruleNow({ personId: s.personId }));
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    }

    // The first read computes the open days and records them.
    await readDays();
    const first = await openDay();
    expect(first).toMatchObject({ day: today, stamp: expect.any(String) });
    // The guard's shift runs eight hours from now, not punched yet: it changes at its end at the latest.
    expect((await stored(guard)).state).toBe('notYetIn');
    if (first.validUntil) expect(first.validUntil.getTime()).toBeGreaterThan(Date.now() - 60_000);
    await holdForAnHour();

    // A repeated read computes nothing: the marker stays.
    await tamper(guard);
    await readDays();
    expect((await stored(guard)).earlyMinutes).toBe(777);

    // A punch recomputes the person who punched; the others stay as they were.
    const out = await admin.post('/app/checkin/punch', punchBody('out'));
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    await readDays();
    expect(await stored(admin)).toMatchObject({ state: 'missingIn', inAt: null });
    expect((await stored(guard)).earlyMinutes).toBe(777);
    const listed = await admin.post('/base/checkin/day/page', {
      personId: admin.personId,
      startDate: today,
      endDate: today,
    });
    expect(listed.body.data.list[0]).toMatchObject({ state: 'missingIn' });

    // An approved make-up recomputes its person's day, seen by the list without computing everyone.
    const asked = await admin.post('/app/checkin/makeup', {
      day: today,
      shift: 0,
      kind: 'in',
      time: localNow().clock,
      reason: 'Phone battery was flat',
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const approved = await admin.post('/base/checkin/makeup/review', {
      makeupId: asked.body.data.makeupId,
      approve: true,
    });
    expect(approved.status).toBe(200);
    await readDays();
    expect((await stored(admin)).state).toBe('done');
    expect((await stored(guard)).earlyMinutes).toBe(777);

    // A holiday (even one to come) changes what days come to: everyone computed again.
    const holiday = await admin.post('/base/checkin/holiday/save', { day: addDays(today, 40), name: 'Founding day' });
    expect(holiday.status).toBe(200);
    await readDays();
    expect((await stored(guard)).earlyMinutes).toBe(0);
    expect((await openDay()).stamp).not.toBe(first.stamp);

    // So does a rule version (one from tomorrow too).
    await holdForAnHour();
    await tamper(guard);
    await readDays();
    expect((await stored(guard)).earlyMinutes).toBe(777);
    const later = await admin.post('/base/checkin/rule/save', ruleNow({ personId: guard.personId }, addDays(today, 1)));
    expect(later.status).toBe(200);
    await readDays();
    expect((await stored(guard)).earlyMinutes).toBe(0);

    // Time passing the first change of a shift's state computes everyone again.
    await holdForAnHour();
    await tamper(guard);
    await readDays();
    expect((await stored(guard)).earlyMinutes).toBe(777);
    await api.db.execute(sql`update checkin_open_day set valid_until = now() - interval '1 second'`);
    await readDays();
    expect((await stored(guard)).earlyMinutes).toBe(0);
    const again = await openDay();
    expect(again.computedAt.getTime()).toBeGreaterThan(first.computedAt.getTime());
  });

  it("when the board is read, it answers the stored rows of today; a row of yesterday or past its next change is computed again, a punch writes its person's row, and a punch deleted by hand forgets the open days and the row", async () => {
    today = localNow().day;
    const boardRow = async (s: Session) => {
      const res = await admin.get('/base/checkin/board');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.day).toBe(today);
      return (
        res.body.data.rows as { personId: number; state: string; lateMinutes: number; inAt: string | null }[]
      ).find((r) => r.personId === s.personId);
    };
    const storedRow = async (s: Session) =>
      (await api.db.select().from(checkinToday).where(eq(checkinToday.personId, s.personId)))[0];
    /** A marker in the guard's stored row, holding for an hour: still answered = not computed again. */
    const tamperRow = (set: Partial<typeof checkinToday.$inferInsert> = {}) =>
      api.db
        .update(checkinToday)
        .set({ lateMinutes: 555, validUntil: new Date(Date.now() + 3_600_000), ...set })
        .where(eq(checkinToday.personId, guard.personId));

    // The first read stores every staff member's row of today; the guard's shift runs, not punched.
    expect((await boardRow(guard))?.state).toBe('notYetIn');
    expect(await storedRow(guard)).toMatchObject({ day: today, state: 'notYetIn', onBoard: true });
    await tamperRow();
    expect((await boardRow(guard))?.lateMinutes).toBe(555);

    // The estate's midnight passed since the row was computed (its day is yesterday): computed again.
    await tamperRow({ day: addDays(today, -1) });
    expect((await boardRow(guard))?.lateMinutes).toBe(0);
    expect((await storedRow(guard)).day).toBe(today);
    // So is a row past its next change by time alone.
    await tamperRow({ validUntil: new Date(Date.now() - 1000) });
    expect((await boardRow(guard))?.lateMinutes).toBe(0);

    // A punch writes its person's row in its own transaction (before any read of the board).
    await tamperRow();
    const punched = await guard.post('/app/checkin/punch', punchBody('in'));
    expect(punched.status, JSON.stringify(punched.body)).toBe(200);
    const afterPunch = await storedRow(guard);
    expect(['onDuty', 'late']).toContain(afterPunch.state);
    expect(afterPunch.inAt?.toISOString()).toBe(punched.body.data.at);
    expect(afterPunch.watermark).toBe(punched.body.data.punchId);

    // The punch deleted by hand: the open days are forgotten and the row deleted, so the next
    // reads compute them again without it.
    await readDays();
    expect(await openDay()).toBeDefined();
    await api.db.delete(checkinPunch).where(eq(checkinPunch.id, punched.body.data.punchId));
    expect(await openDay()).toBeUndefined();
    expect(await storedRow(guard)).toBeUndefined();
    expect((await boardRow(guard))?.state).toBe('notYetIn');
    await readDays();
    expect((await stored(guard)).state).toBe('notYetIn');
  });
});
