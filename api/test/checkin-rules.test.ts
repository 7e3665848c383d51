import { describe, expect, it } from 'vitest';
import {
  computeDay,
  distanceMetres,
  localDate,
  type Punch,
  type Rule,
  ruleOn,
  shiftOfPunch,
  zonedInstant,
} from '../src/modules/checkin/checkin-rules';

// The check-in rule engine (issue 32), pure: no database, every edge the issue names.

const HK = 'Asia/Hong_Kong'; // UTC+8, no DST
const NY = 'America/New_York'; // UTC-5 / -4
const NONE = new Set<string>();

const dayRule: Rule = {
  effectiveFrom: '2026-01-01',
  workDays: [1, 2, 3, 4, 5],
  shifts: [{ start: '09:00', end: '18:00' }],
  lateGraceMinutes: 5,
  earlyGraceMinutes: 5,
  earlyInMinutes: 60,
  lateOutMinutes: 120,
};

/** An instant at a local time of a day in a zone ("HH:mm" or "HH:mm:ss"; "+1 HH:mm" = next day). */
function at(date: string, time: string, tz = HK): number {
  const next = time.startsWith('+1 ');
  const [h, m, s = 0] = time.replace('+1 ', '').split(':').map(Number);
  return zonedInstant(date, (next ? 24 * 60 : 0) + h * 60 + m, tz) + s * 1000;
}
const p = (kind: 'in' | 'out', date: string, time: string, tz = HK): Punch => ({ kind, at: at(date, time, tz) });
const END_OF_TIME = Date.parse('2100-01-01T00:00:00Z');

describe('time zones', () => {
  it('places a local time in the estate zone, not the server zone', () => {
    expect(new Date(zonedInstant('2026-03-02', 9 * 60, HK)).toISOString()).toBe('2026-03-02T01:00:00.000Z');
    expect(new Date(zonedInstant('2026-01-05', 9 * 60, NY)).toISOString()).toBe('2026-01-05T14:00:00.000Z');
    // Summer time in New York: the same wall time is an hour earlier in UTC.
    expect(new Date(zonedInstant('2026-07-06', 9 * 60, NY)).toISOString()).toBe('2026-07-06T13:00:00.000Z');
    expect(localDate(Date.parse('2026-03-02T17:30:00Z'), HK)).toBe('2026-03-03');
    expect(localDate(Date.parse('2026-03-02T17:30:00Z'), NY)).toBe('2026-03-02');
  });

  it('computes a day in a zone other than the server one', () => {
    const d = computeDay({
      date: '2026-07-06',
      rule: dayRule,
      holidays: NONE,
      timeZone: NY,
      punches: [p('in', '2026-07-06', '09:12', NY), p('out', '2026-07-06', '18:00', NY)],
      now: END_OF_TIME,
    });
    expect(d.shifts[0]).toMatchObject({ state: 'done', lateMinutes: 12, late: true, leftEarly: false });
  });
});

describe('one day', () => {
  const day = (punches: Punch[], now = END_OF_TIME, rule = dayRule, holidays = NONE) =>
    computeDay({ date: '2026-03-02', rule, holidays, timeZone: HK, punches, now });

  it('on time in and out', () => {
    const d = day([p('in', '2026-03-02', '08:40'), p('out', '2026-03-02', '18:30')]);
    expect(d.workDay).toBe(true);
    expect(d.closed).toBe(true);
    expect(d.shifts[0]).toMatchObject({ state: 'done', late: false, lateMinutes: 0, leftEarly: false });
  });

  it('exactly on the grace boundary is not late; a second past it is', () => {
    expect(day([p('in', '2026-03-02', '09:05'), p('out', '2026-03-02', '18:00')]).shifts[0]).toMatchObject({
      lateMinutes: 5,
      late: false,
    });
    expect(day([p('in', '2026-03-02', '09:06'), p('out', '2026-03-02', '18:00')]).shifts[0]).toMatchObject({
      lateMinutes: 6,
      late: true,
    });
    expect(day([p('in', '2026-03-02', '09:00'), p('out', '2026-03-02', '17:55')]).shifts[0]).toMatchObject({
      earlyMinutes: 5,
      leftEarly: false,
    });
    expect(day([p('in', '2026-03-02', '09:00'), p('out', '2026-03-02', '17:54:59')]).shifts[0]).toMatchObject({
      earlyMinutes: 6,
      leftEarly: true,
    });
  });

  it('missing punch-in, missing punch-out, absent', () => {
    expect(day([p('out', '2026-03-02', '18:01')]).shifts[0].state).toBe('missingIn');
    expect(day([p('in', '2026-03-02', '09:00')]).shifts[0].state).toBe('missingOut');
    expect(day([]).shifts[0].state).toBe('absent');
  });

  it('punches outside the windows do not count', () => {
    // Too early for a punch-in (earlyInMinutes 60), too late for a punch-out (lateOutMinutes 120).
    expect(day([p('in', '2026-03-02', '07:59'), p('out', '2026-03-02', '20:01')]).shifts[0].state).toBe('absent');
  });

  it('while the day is on: upcoming, not yet in, on duty', () => {
    expect(day([], at('2026-03-02', '08:00')).shifts[0].state).toBe('upcoming');
    expect(day([], at('2026-03-02', '09:30')).shifts[0].state).toBe('notYetIn');
    const on = day([p('in', '2026-03-02', '09:20')], at('2026-03-02', '19:00'));
    expect(on.shifts[0]).toMatchObject({ state: 'onDuty', late: true, lateMinutes: 20 });
    expect(on.closed).toBe(false);
  });

  it('weekend and holiday are days off', () => {
    const sunday = computeDay({
      date: '2026-03-01',
      rule: dayRule,
      holidays: NONE,
      timeZone: HK,
      punches: [],
      now: END_OF_TIME,
    });
    expect(sunday).toMatchObject({ workDay: false, holiday: false, shifts: [] });
    const holiday = day([], END_OF_TIME, dayRule, new Set(['2026-03-02']));
    expect(holiday).toMatchObject({ workDay: false, holiday: true, shifts: [] });
  });

  it('the first punch-in and the last punch-out count', () => {
    const d = day([
      p('out', '2026-03-02', '18:10'),
      p('in', '2026-03-02', '09:10'),
      p('in', '2026-03-02', '08:55'),
      p('out', '2026-03-02', '17:00'),
    ]);
    expect(d.shifts[0]).toMatchObject({
      inAt: at('2026-03-02', '08:55'),
      outAt: at('2026-03-02', '18:10'),
      late: false,
    });
  });
});

describe('a shift ending after midnight', () => {
  const night: Rule = { ...dayRule, workDays: [1, 2, 3, 4, 5, 6, 7], shifts: [{ start: '22:00', end: '06:00' }] };

  it('counts on the day it starts, punches after midnight included', () => {
    const d = computeDay({
      date: '2026-03-02',
      rule: night,
      holidays: NONE,
      timeZone: HK,
      punches: [p('in', '2026-03-02', '21:50'), p('out', '2026-03-02', '+1 06:03')],
      now: END_OF_TIME,
    });
    expect(d.shifts[0]).toMatchObject({ state: 'done', late: false, leftEarly: false });
    expect(d.shifts[0].endAt - d.shifts[0].startAt).toBe(8 * 3_600_000);
    // The next day's night shift does not take the morning's punch-out.
    const next = computeDay({
      date: '2026-03-03',
      rule: night,
      holidays: NONE,
      timeZone: HK,
      punches: [p('in', '2026-03-02', '21:50'), p('out', '2026-03-02', '+1 06:03')],
      now: END_OF_TIME,
    });
    expect(next.shifts[0].state).toBe('absent');
  });

  it('is still on duty after midnight', () => {
    const d = computeDay({
      date: '2026-03-02',
      rule: night,
      holidays: NONE,
      timeZone: HK,
      punches: [p('in', '2026-03-02', '22:30')],
      now: at('2026-03-02', '+1 03:00'),
    });
    expect(d.shifts[0]).toMatchObject({ state: 'onDuty', late: true, lateMinutes: 30 });
  });
});

describe('two shifts a day', () => {
  const split: Rule = {
    ...dayRule,
    shifts: [
      { start: '08:00', end: '12:00' },
      { start: '13:00', end: '17:00' },
    ],
    earlyInMinutes: 30,
    lateOutMinutes: 45,
  };

  it('each punch counts for its own shift', () => {
    const d = computeDay({
      date: '2026-03-02',
      rule: split,
      holidays: NONE,
      timeZone: HK,
      punches: [
        p('in', '2026-03-02', '07:58'),
        p('out', '2026-03-02', '12:01'),
        p('in', '2026-03-02', '13:20'),
        p('out', '2026-03-02', '16:30'),
      ],
      now: END_OF_TIME,
    });
    expect(d.shifts.map((s) => s.state)).toEqual(['done', 'done']);
    expect(d.shifts[0]).toMatchObject({ late: false, leftEarly: false });
    expect(d.shifts[1]).toMatchObject({ late: true, lateMinutes: 20, leftEarly: true, earlyMinutes: 30 });
    expect(shiftOfPunch('2026-03-02', split, HK, p('in', '2026-03-02', '12:40'))).toBe(1);
    expect(shiftOfPunch('2026-03-02', split, HK, p('out', '2026-03-02', '12:40'))).toBe(0);
  });

  it('one shift worked, the other absent', () => {
    const d = computeDay({
      date: '2026-03-02',
      rule: split,
      holidays: NONE,
      timeZone: HK,
      punches: [p('in', '2026-03-02', '08:00'), p('out', '2026-03-02', '12:00')],
      now: END_OF_TIME,
    });
    expect(d.shifts.map((s) => s.state)).toEqual(['done', 'absent']);
  });
});

describe('a change of rule mid-month', () => {
  const versions: Rule[] = [
    dayRule,
    { ...dayRule, effectiveFrom: '2026-03-16', shifts: [{ start: '10:00', end: '19:00' }] },
  ];

  it('days before the change keep the old rule, days from it the new one', () => {
    expect(ruleOn(versions, '2025-12-31')).toBeNull();
    expect(ruleOn(versions, '2026-03-13')?.shifts[0].start).toBe('09:00');
    expect(ruleOn(versions, '2026-03-16')?.shifts[0].start).toBe('10:00');
    const punches = [p('in', '2026-03-13', '09:30'), p('out', '2026-03-13', '18:00')];
    const before = computeDay({
      date: '2026-03-13',
      rule: ruleOn(versions, '2026-03-13')!,
      holidays: NONE,
      timeZone: HK,
      punches,
      now: END_OF_TIME,
    });
    expect(before.shifts[0]).toMatchObject({ late: true, lateMinutes: 30 });
    const after = computeDay({
      date: '2026-03-16',
      rule: ruleOn(versions, '2026-03-16')!,
      holidays: NONE,
      timeZone: HK,
      punches: [p('in', '2026-03-16', '09:30'), p('out', '2026-03-16', '19:00')],
      now: END_OF_TIME,
    });
    expect(after.shifts[0]).toMatchObject({ late: false, lateMinutes: 0, leftEarly: false });
  });
});

describe('the radius', () => {
  const gate = { lat: 22.3193, lng: 114.1694 };
  it('is a great-circle distance in metres', () => {
    // 0.001° of latitude is about 111 m.
    expect(distanceMetres(gate, { lat: 22.3203, lng: 114.1694 })).toBeCloseTo(111.2, 0);
    expect(distanceMetres(gate, gate)).toBe(0);
    // Hong Kong to Taipei, about 806 km.
    const km = distanceMetres(gate, { lat: 25.033, lng: 121.5654 }) / 1000;
    expect(km).toBeGreaterThan(795);
    expect(km).toBeLessThan(815);
  });
});
