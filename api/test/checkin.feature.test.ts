// Staff check-in (issue 32), on the feature template (work-orders.feature.test.ts):
//   1. the happy path: a rule, punches from the staff app (radius, retry, server time), the board, the push
//   2. its rules: closed days are never rewritten; a make-up approval recomputes the day
//   3. permission per call          4. another tenant's ids answer 404 and change nothing
//   5. bad input answered 400, translated, with nothing written
// The rule engine's edge cases (night shifts, grace, holidays, rule changes, zones) are unit
// tests of the pure module: checkin-rules.test.ts.
import { and, eq, gte } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callerOf,
  declaredCalls,
  makeCall,
  openRealtime,
  otherTenant,
  rowCounts,
  signIn,
  signInResident,
  staffWithout,
  startTestApi,
  testEngines,
  type FeatureCall,
  type ResidentSession,
  type Session,
  type TestApi,
  localNow,
  addDays,
  GATE,
  ruleNow,
} from './kit';
import { checkinPunch } from '../src/db/schema';

const TABLES = ['checkin_rule_version', 'checkin_holiday', 'checkin_punch', 'checkin_makeup'] as const;

let keySeq = 0;
const punchBody = (kind: 'in' | 'out', dLat = 0.0005) => ({
  kind,
  lat: GATE.lat + dLat,
  lng: GATE.lng,
  accuracyMetres: 8,
  deviceId: 'phone-1',
  idempotencyKey: `key-${process.pid}-${++keySeq}-${Date.now()}`,
});

/** The rows of an Excel answer (first sheet, header first), read by exceljs. */
async function sheetRows(req: request.Test): Promise<{ status: number; rows: unknown[][] }> {
  const res = await req.buffer(true).parse((response, done) => {
    const chunks: Buffer[] = [];
    response.on('data', (c: Buffer) => chunks.push(c));
    response.on('end', () => done(null, Buffer.concat(chunks)));
  });
  if (res.status !== 200) return { status: res.status, rows: [] };
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(new Uint8Array(res.body as Buffer).buffer);
  const rows = book.worksheets[0]
    .getSheetValues()
    .filter(Boolean)
    .map((r) => (r as unknown[]).slice(1));
  return { status: res.status, rows };
}

interface StaffList {
  departments: { departmentId: number; name: string }[];
  staff: { personId: number; name: string; departmentId: number | null }[];
}

describe.each(testEngines())('staff check-in on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let guard: Session;
  let resident: ResidentSession;
  let other: { admin: Session; staff: Session };
  let people: StaffList;

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, resident, other] = await Promise.all([signIn(api, 'admin'), signInResident(api), otherTenant(api)]);
    // The demo's front-desk role (seed-checkin.ts) holds checkin:punch: it punches for itself.
    guard = await signIn(api, 'staff');
    people = (await admin.get('/base/checkin/staff')).body.data as StaffList;
  });
  afterAll(async () => api?.close());

  /** The demo seed punches its staff up to now: a seeded morning punch would count for a shift the
   * test starts after 08:00 HKT, so the person starts without a punch of the last two days. */
  const withoutRecentPunches = (s: Session) =>
    api.db
      .delete(checkinPunch)
      .where(and(eq(checkinPunch.personId, s.personId), gte(checkinPunch.at, new Date(Date.now() - 2 * 86_400_000))));
  const departmentOf = (s: Session) => people.staff.find((p) => p.personId === s.personId)!.departmentId!;
  const boardRow = async (s: Session) =>
    ((await admin.get('/base/checkin/board')).body.data.rows as { personId: number; state: string }[]).find(
      (r) => r.personId === s.personId,
    );

  it('when a department has a rule, then its staff punch from the app, in the radius only, once per retry, at the server time, and the board follows live', async () => {
    expect(people.departments.length).toBeGreaterThan(0);
    await withoutRecentPunches(guard);
    const saved = await admin.post('/base/checkin/rule/save', ruleNow({ departmentId: departmentOf(guard) }));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject({ current: true, radiusMetres: 100, departmentId: departmentOf(guard) });
    expect((await boardRow(guard))?.state).toBe('notYetIn');

    const socket = await openRealtime(api, admin);
    try {
      // Just outside the radius (0.001° of latitude ≈ 111 m): refused, the distance named, in the asked language.
      const far = await guard.post('/app/checkin/punch', punchBody('in', 0.001)).set('lang', 'en');
      expect(far.status).toBe(400);
      expect(far.body.msg).toBe('You are 111 m from the check-in place; punch within 100 m');
      const farZh = await guard.post('/app/checkin/punch', punchBody('in', 0.001)).set('lang', 'zh-CN');
      expect(farZh.body.msg).toContain('111 米');
      expect((await boardRow(guard))?.state).toBe('outOfPlace');

      // Just inside (≈ 89 m): counted for today's shift; the phone's own time is ignored.
      const before = Date.now();
      const body = { ...punchBody('in', 0.0008), at: '2001-01-01T00:00:00Z' };
      const ok = await guard.post('/app/checkin/punch', body);
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body.data).toMatchObject({ kind: 'in', day: localNow().day, shift: 0, distanceMetres: 89 });
      const at = Date.parse(ok.body.data.at);
      expect(at).toBeGreaterThanOrEqual(before - 1000);
      expect(at).toBeLessThanOrEqual(Date.now() + 1000);

      // The push reaches the console that watches the board.
      const pushed = await socket.waitFor((m) => m.channelType === 3400 && m.action === 'punch');
      expect(pushed).toMatchObject({ personId: guard.personId, kind: 'in', day: localNow().day });
      // It carries the person's new board row, the one the board answers: no reload needed.
      const shown = await boardRow(guard);
      expect(['onDuty', 'late']).toContain(shown?.state);
      expect(pushed.row).toEqual(shown);

      // The same request again (a retry): the same punch, stored once.
      const rows = await rowCounts(api, ['checkin_punch']);
      const again = await guard.post('/app/checkin/punch', body);
      expect(again.body.data).toEqual(ok.body.data);
      expect(await rowCounts(api, ['checkin_punch'])).toEqual(rows);

      // The records list the accepted and the refused punches, filtered.
      const refused = await admin.post('/base/checkin/punch/page', {
        personId: guard.personId,
        inPlace: false,
        limit: 100,
      });
      const mine = refused.body.data.list.filter((p: { distanceMetres: number }) => p.distanceMetres === 111);
      expect(mine).toHaveLength(2);
      expect(refused.body.data.list.every((p: { inPlace: boolean }) => !p.inPlace)).toBe(true);
      const accepted = await admin.post('/base/checkin/punch/page', {
        personId: guard.personId,
        inPlace: true,
        startDate: localNow().day,
        endDate: localNow().day,
      });
      expect(accepted.body.data.list[0].punchId).toBe(ok.body.data.punchId);

      // The staff app shows the shift as it stands.
      const today = (await guard.get('/app/checkin/today')).body.data;
      expect(today[0]).toMatchObject({ state: 'onDuty', shift: 0 });
    } finally {
      socket.close();
    }
  });

  it('when a missing punch-in is made up and approved, then the day is recomputed; a day already closed is never rewritten', async () => {
    // The administrator's own rule (a person's rule wins over the department's).
    await withoutRecentPunches(admin); // the seed punches the administrator too
    const mine = await admin.post('/base/checkin/rule/save', ruleNow({ personId: admin.personId }));
    expect(mine.status).toBe(200);
    const out = await admin.post('/app/checkin/punch', punchBody('out'));
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    let day = (await admin.get('/app/checkin/today')).body.data[0];
    expect(day).toMatchObject({ state: 'missingIn', inAt: null });

    const asked = await admin.post('/app/checkin/makeup', {
      day: localNow().day,
      shift: 0,
      kind: 'in',
      time: mine.body.data.shifts[0].start,
      reason: 'Phone battery was flat',
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(asked.body.data).toMatchObject({ status: 1, kind: 'in' });
    // One pending request per shift.
    const twice = await admin.post('/app/checkin/makeup', {
      day: localNow().day,
      shift: 0,
      kind: 'in',
      time: mine.body.data.shifts[0].start,
      reason: 'again',
    });
    expect(twice.status).toBe(409);
    const pending = await admin.post('/base/checkin/day/page', { personId: admin.personId });
    expect(pending.body.data.list[0]).toMatchObject({ state: 'missingIn', pendingMakeupId: asked.body.data.makeupId });

    const approved = await admin.post('/base/checkin/makeup/review', {
      makeupId: asked.body.data.makeupId,
      approve: true,
    });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: 2, reviewerName: expect.any(String) });
    day = (await admin.get('/app/checkin/today')).body.data[0];
    expect(day.state).toBe('done');
    expect(day.inAt).toBe(asked.body.data.at);
    // Reviewed once only.
    expect(
      (await admin.post('/base/checkin/makeup/review', { makeupId: asked.body.data.makeupId, approve: false })).status,
    ).toBe(409);

    // The month's totals count the day.
    const month = await admin.post('/base/checkin/month/page', { month: localNow().day.slice(0, 7) });
    expect(month.status).toBe(200);
    expect(month.body.data.list.find((r: { personId: number }) => r.personId === admin.personId)).toMatchObject({
      shifts: expect.any(Number),
    });

    // Yesterday is closed: no rule version, no holiday from it.
    const rows = await rowCounts(api, TABLES);
    const past = await admin
      .post('/base/checkin/rule/save', {
        ...ruleNow({ personId: admin.personId }),
        effectiveFrom: addDays(localNow().day, -1),
      })
      .set('lang', 'zh-TW');
    expect(past.status).toBe(400);
    expect(past.body.msg).toContain('已結算');
    expect(
      (await admin.post('/base/checkin/holiday/save', { day: addDays(localNow().day, -1), name: 'x' })).status,
    ).toBe(400);
    // A version in force cannot be deleted; a scheduled one can.
    expect((await admin.post('/base/checkin/rule/delete', { ruleId: mine.body.data.ruleId })).status).toBe(400);
    expect(await rowCounts(api, TABLES)).toEqual(rows);
    const later = await admin.post('/base/checkin/rule/save', {
      ...ruleNow({ personId: admin.personId }),
      effectiveFrom: addDays(localNow().day, 3),
    });
    expect(later.body.data.current).toBe(false);
    expect((await admin.post('/base/checkin/rule/delete', { ruleId: later.body.data.ruleId })).status).toBe(200);
    // Holidays of today or later.
    expect(
      (await admin.post('/base/checkin/holiday/save', { day: addDays(localNow().day, 30), name: 'Founding day' }))
        .status,
    ).toBe(200);
    expect((await admin.get('/base/checkin/holiday/list')).body.data).toContainEqual({
      day: addDays(localNow().day, 30),
      name: 'Founding day',
    });
  });

  it('when the make-up requests are filtered by a date range and a name, then only those are listed; a half or reversed range answers 400', async () => {
    const all = await admin.post('/base/checkin/makeup/page', { limit: 100 });
    expect(all.status).toBe(200);
    const rows = all.body.data.list as { makeupId: number; personName: string; day: string }[];
    expect(rows.length).toBeGreaterThan(0); // the demo seed files three
    const one = rows[0];
    const ids = (res: request.Response) => (res.body.data.list as { makeupId: number }[]).map((r) => r.makeupId);

    // The day of the shift asked for, both ends included.
    const onDay = await admin.post('/base/checkin/makeup/page', { startDate: one.day, endDate: one.day, limit: 100 });
    expect(onDay.status).toBe(200);
    expect(ids(onDay)).toEqual(rows.filter((r) => r.day === one.day).map((r) => r.makeupId));
    expect(onDay.body.data.total).toBe(ids(onDay).length);
    const before = await admin.post('/base/checkin/makeup/page', {
      startDate: addDays(one.day, -40),
      endDate: addDays(one.day, -1),
      limit: 100,
    });
    expect(ids(before)).toEqual(
      rows.filter((r) => r.day < one.day && r.day >= addDays(one.day, -40)).map((r) => r.makeupId),
    );
    expect(ids(before)).not.toContain(one.makeupId);

    // Part of the name, any case.
    const part = one.personName.slice(1, 4).toUpperCase();
    const named = await admin.post('/base/checkin/makeup/page', { keyword: part, limit: 100 });
    expect(ids(named)).toEqual(rows.filter((r) => r.personName.toUpperCase().includes(part)).map((r) => r.makeupId));
    expect(ids(named)).toContain(one.makeupId);
    expect((await admin.post('/base/checkin/makeup/page', { keyword: 'no such name zzz' })).body.data).toMatchObject({
      list: [],
      total: 0,
    });
    // Both together with the status.
    const both = await admin.post('/base/checkin/makeup/page', { keyword: part, startDate: one.day, endDate: one.day });
    expect(ids(both)).toContain(one.makeupId);

    // SPEC §5: an end needs a start, a start needs an end, the end not before the start.
    const bad: [object, RegExp][] = [
      [{ endDate: one.day }, /开始日期/],
      [{ startDate: one.day }, /结束日期/],
      [{ startDate: one.day, endDate: addDays(one.day, -1) }, /结束日期不能早于开始日期/],
      [{ startDate: '2026-02-30', endDate: '2026-03-01' }, /日期/],
    ];
    for (const [body, message] of bad) {
      const res = await admin.post('/base/checkin/makeup/page', body).set('lang', 'zh-CN');
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.msg, JSON.stringify(body)).toMatch(message);
    }
    const en = await admin.post('/base/checkin/makeup/page', { endDate: one.day }).set('lang', 'en');
    expect(en.body.msg).toBe('Start date is required');
  });

  it('when the records are exported, then the Excel file holds the filtered punches and the month per person, in the asked language', async () => {
    const punches = await sheetRows(
      admin.post('/base/checkin/punch/export', { personId: guard.personId, inPlace: false }).set('lang', 'zh-CN'),
    );
    expect(punches.status).toBe(200);
    expect(punches.rows[0]).toEqual(['人员', '部门', '打卡', '时间', '地点', '来源', '计入日期']);
    const listed = await admin.post('/base/checkin/punch/page', { personId: guard.personId, inPlace: false });
    expect(punches.rows.length - 1).toBe(listed.body.data.total);
    expect(String(punches.rows[1][4])).toMatch(/^已拒绝/);

    const month = await sheetRows(admin.post('/base/checkin/month/export', { month: localNow().day.slice(0, 7) }));
    expect(month.status).toBe(200);
    expect(month.rows[0]).toEqual([
      'Person',
      'Department',
      'Shift',
      'Late',
      'Minutes late',
      'Left early',
      'Missing punch-in',
      'Missing punch-out',
      'Absent',
    ]);
    const page = await admin.post('/base/checkin/month/page', { month: localNow().day.slice(0, 7), limit: 100 });
    expect(month.rows.length - 1).toBe(page.body.data.total);
  });

  const staffCalls = (rule: number, makeup: number): (FeatureCall & { record?: true; perm: string })[] => [
    { perm: 'checkin:view', method: 'get', path: '/base/checkin/staff' },
    { perm: 'checkin:view', method: 'post', path: '/base/checkin/rule/list', body: () => ({}) },
    { perm: 'checkin:view', method: 'get', path: '/base/checkin/holiday/list' },
    { perm: 'checkin:view', method: 'post', path: '/base/checkin/punch/page', body: () => ({}) },
    { perm: 'checkin:view', method: 'post', path: '/base/checkin/day/page', body: () => ({}) },
    { perm: 'checkin:view', method: 'post', path: '/base/checkin/month/page', body: () => ({ month: '2026-01' }) },
    { perm: 'checkin:view', method: 'post', path: '/base/checkin/makeup/page', body: () => ({}) },
    { perm: 'checkin:view', method: 'get', path: '/base/checkin/board' },
    { perm: 'checkin:view', method: 'post', path: '/base/checkin/punch/export', body: () => ({}) },
    { perm: 'checkin:view', method: 'post', path: '/base/checkin/month/export', body: () => ({ month: '2026-01' }) },
    {
      perm: 'checkin:rules',
      method: 'post',
      path: '/base/checkin/rule/save',
      body: () => ({ ...ruleNow({ departmentId: people.departments[0].departmentId }), effectiveFrom: '2099-01-01' }),
      record: true,
    },
    {
      perm: 'checkin:rules',
      method: 'post',
      path: '/base/checkin/rule/delete',
      body: () => ({ ruleId: rule }),
      record: true,
    },
    {
      perm: 'checkin:rules',
      method: 'post',
      path: '/base/checkin/holiday/save',
      body: () => ({ day: '2099-01-01', name: 'x' }),
    },
    {
      perm: 'checkin:rules',
      method: 'post',
      path: '/base/checkin/holiday/delete',
      body: () => ({ day: '2099-01-02' }),
    },
    {
      perm: 'checkin:approve',
      method: 'post',
      path: '/base/checkin/makeup/review',
      body: () => ({ makeupId: makeup, approve: true }),
      record: true,
    },
    { perm: 'checkin:punch', method: 'post', path: '/app/checkin/punch', body: () => punchBody('in') },
    { perm: 'checkin:punch', method: 'get', path: '/app/checkin/today' },
    {
      perm: 'checkin:punch',
      method: 'post',
      path: '/app/checkin/makeup',
      body: () => ({ day: localNow().day, shift: 0, kind: 'out', time: '00:00', reason: 'x' }),
    },
  ];

  /** A scheduled rule version and a pending make-up request of this estate (made once). */
  let made: Promise<{ rule: number; makeup: number }> | undefined;
  const records = () => (made ??= makeRecords());
  async function makeRecords(): Promise<{ rule: number; makeup: number }> {
    const rule = await admin.post('/base/checkin/rule/save', {
      ...ruleNow({ departmentId: people.departments[0].departmentId }),
      effectiveFrom: addDays(localNow().day, 5),
    });
    await admin.post('/base/checkin/rule/save', ruleNow({ personId: guard.personId }));
    const makeup = await guard.post('/app/checkin/makeup', {
      day: localNow().day,
      shift: 0,
      kind: 'in',
      time: localNow().clock,
      reason: 'Forgot',
    });
    expect(makeup.status, JSON.stringify(makeup.body)).toBe(200);
    return { rule: rule.body.data.ruleId, makeup: makeup.body.data.makeupId };
  }

  it('when a caller lacks the permission a call declares, then that call answers 403 (a resident 403, no token 401) and nothing changes', async () => {
    const { rule, makeup } = await records();
    const calls = staffCalls(rule, makeup);
    const declared = await declaredCalls(api, calls);
    const rows = await rowCounts(api, TABLES);
    for (const [i, call] of declared.entries()) {
      const what = `${call.method.toUpperCase()} ${call.path}`;
      expect(call.permission, what).toBe(calls[i].perm);
      const lacking = await staffWithout(api, admin, call.permission);
      expect((await makeCall(lacking, call, 0)).status, `staff lacking it: ${what}`).toBe(403);
      expect((await makeCall(resident, call, 0)).status, `resident: ${what}`).toBe(403);
      expect((await makeCall(callerOf(api, 'no-such-token'), call, 0)).status, `no token: ${what}`).toBe(401);
    }
    expect(await rowCounts(api, TABLES)).toEqual(rows);
  });

  it("when another estate's staff use this estate's ids, then every call answers 404 or leaves them out, and no row changes", async () => {
    const { rule, makeup } = await records();
    const rows = await rowCounts(api, TABLES);
    for (const call of staffCalls(rule, makeup)) {
      // The exports read the lists' own queries (checked here through the lists); the staff app is the caller's own.
      if (call.path.startsWith('/app/') || call.path.includes('holiday/') || call.path.endsWith('/export')) continue;
      const res = await makeCall(other.staff, call, 0);
      const what = `${call.method.toUpperCase()} ${call.path}`;
      if (call.record) expect(res.status, what).toBe(404);
      else {
        const text = JSON.stringify(res.body.data);
        for (const p of people.staff) expect(text, what).not.toContain(`"personName":"${p.name}"`);
      }
    }
    expect(await rowCounts(api, TABLES)).toEqual(rows);
    expect(
      (await admin.post('/base/checkin/makeup/page', { status: 1 })).body.data.list.map(
        (m: { makeupId: number }) => m.makeupId,
      ),
    ).toContain(makeup);
  });

  it('when input is bad, then the call answers 400 with a message in the asked language and writes nothing', async () => {
    const valid = ruleNow({ departmentId: people.departments[0].departmentId });
    const rows = await rowCounts(api, TABLES);
    const bad: [string, object][] = [
      ['/base/checkin/rule/save', { ...valid, workDays: [] }],
      ['/base/checkin/rule/save', { ...valid, workDays: [1, 1] }],
      ['/base/checkin/rule/save', { ...valid, workDays: [8] }],
      ['/base/checkin/rule/save', { ...valid, shifts: [] }],
      ['/base/checkin/rule/save', { ...valid, shifts: [{ start: '25:00', end: '08:00' }] }],
      ['/base/checkin/rule/save', { ...valid, effectiveFrom: '2026-02-30' }],
      ['/base/checkin/rule/save', { ...valid, personId: guard.personId }],
      ['/base/checkin/rule/save', { ...valid, radiusMetres: 5 }],
      ['/base/checkin/rule/save', { ...valid, lat: 91 }],
      ['/base/checkin/rule/save', { ...valid, lateGraceMinutes: -1 }],
      ['/base/checkin/holiday/save', { day: 'tomorrow', name: 'x' }],
      ['/base/checkin/holiday/save', { day: '2099-01-01', name: ' ' }],
      ['/base/checkin/punch/page', { startDate: '2026-05-02', endDate: '2026-05-01' }],
      ['/base/checkin/day/page', { problem: 'sleepy' }],
      ['/base/checkin/month/page', { month: '2026-13' }],
      ['/base/checkin/makeup/review', { makeupId: 'x', approve: true }],
      ['/base/checkin/makeup/page', { startDate: '2026-05-02', endDate: '2026-05-01' }],
      ['/base/checkin/makeup/page', { endDate: '2026-05-01' }],
      ['/app/checkin/punch', { ...punchBody('in'), lat: 200 }],
      ['/app/checkin/punch', { ...punchBody('in'), kind: 'lunch' }],
      ['/app/checkin/punch', { ...punchBody('in'), idempotencyKey: 'k' }],
      ['/app/checkin/makeup', { day: localNow().day, shift: 0, kind: 'in', time: '09:00', reason: '' }],
      ['/app/checkin/makeup', { day: localNow().day, shift: 0, kind: 'in', time: '9am', reason: 'x' }],
    ];
    for (const [path, body] of bad) {
      const res = await admin.post(path, body).set('lang', 'zh-CN');
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.msg, path).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(await rowCounts(api, TABLES)).toEqual(rows);
  });
});
