// Check-in rule settings (issue 32, the rule settings screen), on the feature template: a person's
// own rule wins over their department's, with more than two shifts a day and its punch windows;
// shifts of one day may not overlap; a punch just inside and just outside the radius; the
// permission of the call, another estate's ids, bad input answered 400 in the person's language
// (field names included) with nothing written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shiftsOverlap } from '@pm/shared';
import {
  otherTenant,
  rowCounts,
  signIn,
  staffWithout,
  startTestApi,
  testEngines,
  type Session,
  type TestApi,
  localNow,
  GATE,
} from './kit';

const TABLES = ['checkin_rule_version', 'checkin_holiday', 'checkin_punch', 'checkin_makeup'] as const;
/** Metres per degree of latitude on the engine's sphere (mean Earth radius 6,371,008.8 m). */
const METRES_PER_DEGREE = (2 * Math.PI * 6_371_008.8) / 360;

const rule = (owner: { departmentId?: number; personId?: number }, shifts: { start: string; end: string }[]) => ({
  ...owner,
  effectiveFrom: localNow().day,
  workDays: [1, 2, 3, 4, 5, 6, 7],
  shifts,
  lateGraceMinutes: 3,
  earlyGraceMinutes: 4,
  earlyInMinutes: 30,
  lateOutMinutes: 45,
  placeName: 'Main gate',
  ...GATE,
  radiusMetres: 100,
});

let keySeq = 0;
const punchAt = (metresNorth: number) => ({
  kind: 'in' as const,
  lat: GATE.lat + metresNorth / METRES_PER_DEGREE,
  lng: GATE.lng,
  accuracyMetres: 5,
  deviceId: 'phone-rules',
  idempotencyKey: `rules-${process.pid}-${++keySeq}-${Date.now()}`,
});

interface StaffList {
  departments: { departmentId: number; name: string }[];
  staff: { personId: number; name: string; departmentId: number | null }[];
}

describe('shifts of a day', () => {
  it('overlap when they share a minute, a night shift against the next morning included', () => {
    expect(shiftsOverlap([{ start: '08:00', end: '12:00' }])).toBe(false);
    expect(
      shiftsOverlap([
        { start: '06:00', end: '10:00' },
        { start: '10:00', end: '14:00' },
        { start: '22:00', end: '06:00' },
      ]),
    ).toBe(false);
    expect(
      shiftsOverlap([
        { start: '08:00', end: '12:00' },
        { start: '11:59', end: '13:00' },
      ]),
    ).toBe(true);
    // 22:00–07:00 runs into the next day's 06:00 shift.
    expect(
      shiftsOverlap([
        { start: '06:00', end: '10:00' },
        { start: '22:00', end: '07:00' },
      ]),
    ).toBe(true);
    // A 24-hour shift leaves room for no other.
    expect(
      shiftsOverlap([
        { start: '08:00', end: '08:00' },
        { start: '12:00', end: '13:00' },
      ]),
    ).toBe(true);
  });
});

describe.each(testEngines())('check-in rule settings on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let guard: Session;
  let other: { admin: Session; staff: Session };
  let people: StaffList;

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, other] = await Promise.all([signIn(api, 'admin'), otherTenant(api)]);
    // The demo's front-desk role (seed-checkin.ts) holds checkin:punch.
    guard = await signIn(api, 'staff');
    people = (await admin.get('/base/checkin/staff')).body.data as StaffList;
  });
  afterAll(async () => api?.close());

  const departmentOf = (s: Session) => people.staff.find((p) => p.personId === s.personId)!.departmentId!;

  it("when a person has their own rule with three shifts, then it wins over their department's: the list names them and their day has three shifts with the rule's windows", async () => {
    const dept = await admin.post(
      '/base/checkin/rule/save',
      rule({ departmentId: departmentOf(guard) }, [{ start: localNow().clock, end: localNow(8).clock }]),
    );
    expect(dept.status).toBe(200);
    const shifts = [
      { start: localNow().clock, end: localNow(2).clock },
      { start: localNow(3).clock, end: localNow(5).clock },
      { start: localNow(6).clock, end: localNow(8).clock },
    ];
    const own = await admin.post('/base/checkin/rule/save', rule({ personId: guard.personId }, shifts));
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({
      personId: guard.personId,
      departmentId: null,
      personName: people.staff.find((p) => p.personId === guard.personId)!.name,
      shifts,
      earlyInMinutes: 30,
      lateOutMinutes: 45,
      lateGraceMinutes: 3,
      earlyGraceMinutes: 4,
      current: true,
    });
    const listed = (await admin.post('/base/checkin/rule/list', { personId: guard.personId })).body.data as {
      ruleId: number;
    }[];
    expect(listed.map((r) => r.ruleId)).toEqual([own.body.data.ruleId]);

    const today = (await guard.get('/app/checkin/today')).body.data as { shift: number; startAt: string }[];
    expect(today.map((s) => s.shift)).toEqual([0, 1, 2]);
    // The first shift starts this minute (the department's would too, but has one shift only).
    expect(Math.abs(Date.parse(today[0].startAt) - Date.now())).toBeLessThan(60_000 + 1_000);
    // Its punch-in window opens 30 minutes early: a punch now counts for shift 0.
    const res = await guard.post('/app/checkin/punch', punchAt(0));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ shift: 0, day: localNow().day });
  });

  it('when a punch is 99 m from the place of a 100 m radius, then it counts; at 101 m it is refused naming the distance', async () => {
    const inside = await guard.post('/app/checkin/punch', punchAt(99));
    expect(inside.status).toBe(200);
    expect(inside.body.data.distanceMetres).toBe(99);
    const outside = await guard.post('/app/checkin/punch', punchAt(101)).set('lang', 'en');
    expect(outside.status).toBe(400);
    expect(outside.body.msg).toContain('101');
    expect(outside.body.msg).toContain('100');
  });

  it('when shifts of one day overlap or a field is out of range, then the save answers 400 in the asked language naming the field, and writes nothing', async () => {
    const valid = rule({ personId: guard.personId }, [{ start: '08:00', end: '12:00' }]);
    const rows = await rowCounts(api, TABLES);
    const cases: [object, RegExp][] = [
      [{ ...valid, shifts: [valid.shifts[0], { start: '11:00', end: '13:00' }] }, /重叠/],
      [{ ...valid, shifts: [valid.shifts[0], { start: '22:00', end: '09:00' }] }, /重叠/],
      [{ ...valid, shifts: Array.from({ length: 5 }, (_, i) => ({ start: `0${i}:00`, end: `0${i}:30` })) }, /班次/],
      [{ ...valid, lateGraceMinutes: -1 }, /迟到宽限/],
      [{ ...valid, earlyInMinutes: 721 }, /上班打卡提前时间/],
      [{ ...valid, lateOutMinutes: 'late' }, /下班打卡延后时间/],
      [{ ...valid, radiusMetres: 5 }, /半径/],
      [{ ...valid, lng: 181 }, /经度/],
      [{ ...valid, workDays: [] }, /工作日/],
      [{ ...valid, departmentId: departmentOf(guard) }, /部门|人员/],
    ];
    for (const [body, message] of cases) {
      const res = await admin.post('/base/checkin/rule/save', body).set('lang', 'zh-CN');
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.msg, JSON.stringify(body)).toMatch(message);
      expect(res.body.msg).not.toMatch(/[A-Za-z]{4,}/);
    }
    const tw = await admin
      .post('/base/checkin/rule/save', { ...valid, shifts: [valid.shifts[0], { start: '11:00', end: '13:00' }] })
      .set('lang', 'zh-TW');
    expect(tw.body.msg).toMatch(/重疊/);
    expect(await rowCounts(api, TABLES)).toEqual(rows);
  });

  it("when another estate's staff give this estate's person, or staff lack checkin:rules, then a person's rule is not saved (404, 403)", async () => {
    const body = rule({ personId: guard.personId }, [{ start: '08:00', end: '12:00' }]);
    const rows = await rowCounts(api, TABLES);
    expect((await other.admin.post('/base/checkin/rule/save', body)).status).toBe(404);
    const lacking = await staffWithout(api, admin, 'checkin:rules');
    expect((await lacking.post('/base/checkin/rule/save', body)).status).toBe(403);
    expect((await guard.post('/base/checkin/rule/save', body)).status).toBe(403);
    expect(await rowCounts(api, TABLES)).toEqual(rows);
  });
});
