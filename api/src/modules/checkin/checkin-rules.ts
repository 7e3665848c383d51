// The check-in rule engine (issue 32): pure functions, no database. From a rule, the estate's
// holidays, its time zone and a person's punches it computes each shift of one day: when the
// person came and went, how late, how early, what is missing. The service reads the rows and
// stores what this module answers; everything a rule means is decided here, and tested in
// api/test/checkin-rules.test.ts.

/** One shift of a rule: local times "HH:mm"; an end at or before the start ends the next day. */
export interface Shift {
  start: string;
  end: string;
}

/** One version of a rule: it applies from `effectiveFrom` (yyyy-MM-dd, the estate's day) on. */
export interface Rule {
  effectiveFrom: string;
  /** ISO weekdays the rule works: 1 Monday … 7 Sunday. */
  workDays: number[];
  shifts: Shift[];
  /** A punch-in this many minutes after the start is not late yet (exactly on it: not late). */
  lateGraceMinutes: number;
  /** A punch-out this many minutes before the end is not leaving early yet. */
  earlyGraceMinutes: number;
  /** How long before a shift's start a punch-in counts for it. */
  earlyInMinutes: number;
  /** How long after a shift's end a punch-out counts for it. */
  lateOutMinutes: number;
}

export type PunchKind = 'in' | 'out';

export interface Punch {
  /** The server's time of the punch, ms since the epoch. */
  at: number;
  kind: PunchKind;
}

/**
 * Where a shift stands: `upcoming` (not started, nothing punched), `notYetIn` (started, no
 * punch-in yet, still on), `onDuty` (punched in, not out, shift or its punch-out window still on),
 * `done` (in and out), `missingIn` (out without in), `missingOut` (in, the punch-out window
 * passed without out), `absent` (the shift passed with no punch).
 */
export type ShiftState = 'upcoming' | 'notYetIn' | 'onDuty' | 'done' | 'missingIn' | 'missingOut' | 'absent';

export interface ShiftResult {
  shift: number;
  startAt: number;
  endAt: number;
  inAt: number | null;
  outAt: number | null;
  state: ShiftState;
  /** Minutes after the start of the punch-in (0 when on time); late only when past the grace. */
  lateMinutes: number;
  late: boolean;
  /** Minutes before the end of the punch-out (0 when on time). */
  earlyMinutes: number;
  leftEarly: boolean;
}

export interface DayResult {
  date: string;
  /** False on a day off (not a working weekday, or a holiday): no shifts. */
  workDay: boolean;
  holiday: boolean;
  shifts: ShiftResult[];
  /** True when every shift is over (nothing of the day can change by waiting). */
  closed: boolean;
}

const MINUTE = 60_000;

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;
export const isClock = (v: string): boolean => HHMM.test(v);

/** Minutes since midnight of "HH:mm". */
export function clockMinutes(v: string): number {
  const m = HHMM.exec(v);
  if (!m) throw new Error(`not a time of day: ${v}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/** yyyy-MM-dd plus n days. */
export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** ISO weekday of yyyy-MM-dd: 1 Monday … 7 Sunday. */
export function isoWeekday(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsIn(timeZone: string, at: number): Record<string, number> {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  const out: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(at))) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out;
}

/** The zone's offset from UTC at an instant, in ms. */
function offsetAt(timeZone: string, at: number): number {
  const p = partsIn(timeZone, at);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(at / 1000) * 1000;
}

/**
 * The instant of a local date and time (minutes after its midnight, past 24 h for the next day)
 * in a zone. A local time a DST change skips or repeats resolves to an instant next to it.
 */
export function zonedInstant(date: string, minutes: number, timeZone: string): number {
  // Intl is slow (≈ 0.1 ms a call): a month of 2,000 staff asks the same few instants again and again.
  const key = `${timeZone}|${date}|${minutes}`;
  const known = instants.get(key);
  if (known !== undefined) return known;
  if (instants.size > 50_000) instants.clear();
  const at = computeInstant(date, minutes, timeZone);
  instants.set(key, at);
  return at;
}

const instants = new Map<string, number>();

function computeInstant(date: string, minutes: number, timeZone: string): number {
  const naive = Date.parse(`${date}T00:00:00Z`) + minutes * MINUTE;
  const guess = offsetAt(timeZone, naive);
  const offset = offsetAt(timeZone, naive - guess);
  return naive - offset;
}

/** The estate's day (yyyy-MM-dd) of an instant. */
export function localDate(at: number, timeZone: string): string {
  const p = partsIn(timeZone, at);
  return `${String(p.year).padStart(4, '0')}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** The version of the rule in force on a day: the latest whose effectiveFrom is not after it. */
export function ruleOn<R extends { effectiveFrom: string }>(versions: readonly R[], date: string): R | null {
  let best: R | null = null;
  for (const v of versions) if (v.effectiveFrom <= date && (!best || v.effectiveFrom > best.effectiveFrom)) best = v;
  return best;
}

/** A shift's start and end instants on a day (the end on the next day when it is not after the start). */
export function shiftSpan(date: string, shift: Shift, timeZone: string): { startAt: number; endAt: number } {
  const start = clockMinutes(shift.start);
  let end = clockMinutes(shift.end);
  if (end <= start) end += 24 * 60;
  return { startAt: zonedInstant(date, start, timeZone), endAt: zonedInstant(date, end, timeZone) };
}

/**
 * The instants a day's punches can lie between: from the earliest punch-in window to the latest
 * punch-out window (the next day for a shift past midnight). The service reads punches in it.
 */
export function punchWindow(date: string, rule: Rule, timeZone: string): { from: number; to: number } | null {
  if (!rule.shifts.length) return null;
  let from = Infinity;
  let to = -Infinity;
  for (const s of rule.shifts) {
    const { startAt, endAt } = shiftSpan(date, s, timeZone);
    from = Math.min(from, startAt - rule.earlyInMinutes * MINUTE);
    to = Math.max(to, endAt + rule.lateOutMinutes * MINUTE);
  }
  return { from, to };
}

/**
 * Which shift of the day a punch counts for, or null: a punch-in counts from `earlyInMinutes`
 * before a shift's start until its end, a punch-out after its start until `lateOutMinutes` after
 * its end; where two shifts' windows hold it, the one whose start (in) or end (out) is nearest.
 */
export function shiftOfPunch(date: string, rule: Rule, timeZone: string, punch: Punch): number | null {
  let best: number | null = null;
  let bestDistance = Infinity;
  rule.shifts.forEach((s, i) => {
    const { startAt, endAt } = shiftSpan(date, s, timeZone);
    const inside =
      punch.kind === 'in'
        ? punch.at >= startAt - rule.earlyInMinutes * MINUTE && punch.at < endAt
        : punch.at > startAt && punch.at <= endAt + rule.lateOutMinutes * MINUTE;
    if (!inside) return;
    const distance = Math.abs(punch.at - (punch.kind === 'in' ? startAt : endAt));
    if (distance < bestDistance) {
      best = i;
      bestDistance = distance;
    }
  });
  return best;
}

/** Whether a day is worked under a rule: a working weekday that is not one of the estate's holidays. */
export function isWorkDay(date: string, rule: Rule, holidays: ReadonlySet<string>): boolean {
  return rule.workDays.includes(isoWeekday(date)) && !holidays.has(date);
}

/**
 * What a day under a rule comes to before any punch: whether it is worked, each shift's start
 * and end, and the window its punches can lie in. The same for every person the rule applies to,
 * so a month of many staff plans each (rule, day) once (`computePlannedDay` then takes one
 * person's punches).
 */
export interface DayPlan {
  date: string;
  rule: Rule;
  workDay: boolean;
  holiday: boolean;
  spans: { startAt: number; endAt: number }[];
  /** The instants the day's punches can lie between (`punchWindow`); null without shifts. */
  window: { from: number; to: number } | null;
}

export function planDay(date: string, rule: Rule, holidays: ReadonlySet<string>, timeZone: string): DayPlan {
  const workDay = isWorkDay(date, rule, holidays);
  return {
    date,
    rule,
    workDay,
    holiday: holidays.has(date),
    spans: workDay ? rule.shifts.map((s) => shiftSpan(date, s, timeZone)) : [],
    window: workDay ? punchWindow(date, rule, timeZone) : null,
  };
}

/** `shiftOfPunch` on a planned day (the same choice, without converting times again). */
function plannedShiftOf(plan: DayPlan, punch: Punch): number | null {
  const { rule } = plan;
  let best: number | null = null;
  let bestDistance = Infinity;
  for (let i = 0; i < plan.spans.length; i++) {
    const { startAt, endAt } = plan.spans[i];
    const inside =
      punch.kind === 'in'
        ? punch.at >= startAt - rule.earlyInMinutes * MINUTE && punch.at < endAt
        : punch.at > startAt && punch.at <= endAt + rule.lateOutMinutes * MINUTE;
    if (!inside) continue;
    const distance = Math.abs(punch.at - (punch.kind === 'in' ? startAt : endAt));
    if (distance < bestDistance) {
      best = i;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * One person's day: every shift of the rule in force, from the punches (any order; punches of
 * other days are ignored by the windows), as things stand at `now`. The first punch-in and the
 * last punch-out of a shift count.
 */
export function computeDay(input: {
  date: string;
  rule: Rule;
  holidays: ReadonlySet<string>;
  timeZone: string;
  punches: readonly Punch[];
  now: number;
}): DayResult {
  return computePlannedDay(planDay(input.date, input.rule, input.holidays, input.timeZone), input.punches, input.now);
}

/** `computeDay` on a planned day: `punches` may be any of the person's (those outside every window count for nothing). */
export function computePlannedDay(plan: DayPlan, punches: readonly Punch[], now: number): DayResult {
  const { date, rule, holiday } = plan;
  if (!plan.workDay) return { date, workDay: false, holiday, shifts: [], closed: true };
  const ins: (number | null)[] = plan.spans.map(() => null);
  const outs: (number | null)[] = plan.spans.map(() => null);
  for (const p of punches) {
    const i = plannedShiftOf(plan, p);
    if (i === null) continue;
    if (p.kind === 'in') ins[i] = ins[i] === null ? p.at : Math.min(ins[i], p.at);
    else outs[i] = outs[i] === null ? p.at : Math.max(outs[i], p.at);
  }
  let closed = true;
  const shifts = plan.spans.map(({ startAt, endAt }, i): ShiftResult => {
    const inAt = ins[i];
    const outAt = outs[i];
    const outWindowOver = now > endAt + rule.lateOutMinutes * MINUTE;
    if (!outWindowOver) closed = false;
    const lateMinutes = inAt === null ? 0 : Math.max(0, Math.floor((inAt - startAt) / MINUTE));
    const earlyMinutes = outAt === null ? 0 : Math.max(0, Math.ceil((endAt - outAt) / MINUTE));
    let state: ShiftState;
    if (inAt === null && outAt === null) state = now < startAt ? 'upcoming' : now < endAt ? 'notYetIn' : 'absent';
    else if (inAt === null) state = 'missingIn';
    else if (outAt === null) state = outWindowOver ? 'missingOut' : 'onDuty';
    else state = 'done';
    return {
      shift: i,
      startAt,
      endAt,
      inAt,
      outAt,
      state,
      lateMinutes,
      late: lateMinutes > rule.lateGraceMinutes,
      earlyMinutes,
      leftEarly: earlyMinutes > rule.earlyGraceMinutes,
    };
  });
  return { date, workDay: true, holiday, shifts, closed };
}

/** The great-circle distance between two points (degrees), in metres (haversine, mean Earth radius). */
export function distanceMetres(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const R = 6_371_008.8;
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}
