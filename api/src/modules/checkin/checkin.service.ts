import {
  BOARD_STATES,
  ChannelType,
  listPage,
  MAKEUP_STATUSES,
  type BoardState,
  type CheckinBoard,
  type CheckinBoardRow,
  type CheckinDayPageSchema,
  type CheckinMakeupPageSchema,
  type CheckinMakeupRow,
  type CheckinMonthPageSchema,
  type CheckinPunchPageSchema,
  type CheckinRuleRow,
  type CheckinRuleSave,
  type MakeupRequestSchema,
  type PunchAnswer,
  type PunchSchema,
} from '@pm/shared';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/open-database';
import { isoOrNull } from '../../db/sql';
import { AppError } from '../../http/app-error';
import type { AuthedContext, TenantScope } from '../../http/request-context';
import { pushAfterCommit } from '../message/notify';
import { withPushes } from '../message/push-outbox';
import { staffWithPermission } from '../realtime/recipients';
import {
  addDays,
  clockMinutes,
  computeDay,
  computePlannedDay,
  distanceMetres,
  planDay,
  ruleOn,
  shiftOfPunch,
  shiftSpan,
  zonedInstant,
  type DayPlan,
  type DayResult,
  type Punch,
} from './checkin-rules';
import * as repo from './checkin.repository';

// Staff check-in (issue 32): the use cases. The rule engine (checkin-rules.ts) decides what a
// day comes to; this file reads the rows it needs, stores what it answers and tells the board.

const DAY_MS = 86_400_000;

/** The rules and holidays of the estate, and which version applies to a person on a day. */
interface Rules {
  versions: repo.RuleVersion[];
  holidays: Set<string>;
  /** A person's own version in force that day wins; else their department's; null: no rule. */
  ruleFor(person: repo.StaffMember, day: string): repo.RuleVersion | null;
}

async function loadRules(db: DbOrTx, tenant: TenantScope): Promise<Rules> {
  // One after the other: `db` may be a transaction (one connection).
  const versions = await repo.ruleVersions(db, tenant);
  const holidays = await repo.holidays(db, tenant);
  const byPerson = new Map<number, repo.RuleVersion[]>();
  const byDepartment = new Map<number, repo.RuleVersion[]>();
  for (const v of versions) {
    if (v.personId != null) byPerson.set(v.personId, [...(byPerson.get(v.personId) ?? []), v]);
    else if (v.departmentId != null) byDepartment.set(v.departmentId, [...(byDepartment.get(v.departmentId) ?? []), v]);
  }
  return {
    versions,
    holidays: new Set(holidays.map((h) => h.day)),
    ruleFor: (person, day) =>
      ruleOn(byPerson.get(person.personId) ?? [], day) ??
      (person.departmentId == null ? null : ruleOn(byDepartment.get(person.departmentId) ?? [], day)),
  };
}

/** Days from `from` to `to`, both included. */
function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** The instants (ms) of every punch that can count for some days: a day before the first to a day and a half past the last. */
function punchRange(days: string[], timeZone: string): { from: number; to: number } {
  return {
    from: zonedInstant(days[0], 0, timeZone) - DAY_MS,
    to: zonedInstant(days[days.length - 1], 0, timeZone) + 3 * DAY_MS,
  };
}

/** The index of the first punch at or after `at` (punches sorted by time). */
function firstAtOrAfter(punches: readonly Punch[], at: number): number {
  let lo = 0;
  let hi = punches.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (punches[mid].at < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Computes (and answers) the days of some staff, at `now`, without storing them. Set-based: one
 * read of the punches of the whole range, each (rule version, day) planned once for everyone it
 * applies to, and each person's day given only the punches its windows can hold (a binary search
 * in the person's punches, sorted by time).
 */
async function computeDays(
  db: DbOrTx,
  tenant: TenantScope,
  timeZone: string,
  days: string[],
  staff: repo.StaffMember[],
  rules: Rules,
  now: number,
  known?: Map<number, repo.PunchTimeline>,
): Promise<{ person: repo.StaffMember; result: DayResult; rule: repo.RuleVersion }[]> {
  if (!days.length || !staff.length) return [];
  // Every punch that can count for these days: a day before the first to a day and a half past the last.
  const { from, to } = punchRange(days, timeZone);
  const timelines =
    known ??
    (await repo.punchTimelines(db, tenant, new Date(from), new Date(to), {
      personIds: staff.length > 500 ? undefined : staff.map((s) => s.personId),
      acceptedOnly: true,
    }));
  const byPerson = new Map<number, Punch[]>();
  for (const [personId, t] of timelines) {
    const list: Punch[] = [];
    for (let i = 0; i < t.at.length; i++)
      if (t.inPlace[i] && t.at[i] >= from && t.at[i] <= to) list.push({ at: t.at[i], kind: t.kind[i] });
    // In time order already (the query's); a stable sort keeps it so.
    byPerson.set(personId, list);
  }
  const plans = new Map<string, DayPlan>();
  const planOf = (rule: repo.RuleVersion, day: string): DayPlan => {
    const key = `${rule.id}|${day}`;
    let plan = plans.get(key);
    if (!plan) plans.set(key, (plan = planDay(day, rule, rules.holidays, timeZone)));
    return plan;
  };
  const NONE: Punch[] = [];
  const out: { person: repo.StaffMember; result: DayResult; rule: repo.RuleVersion }[] = [];
  for (const person of staff) {
    const mine = byPerson.get(person.personId) ?? NONE;
    for (const day of days) {
      const rule = rules.ruleFor(person, day);
      if (!rule) continue;
      const plan = planOf(rule, day);
      let dayPunches = NONE;
      if (plan.window && mine.length) {
        const first = firstAtOrAfter(mine, plan.window.from);
        let last = first;
        while (last < mine.length && mine[last].at <= plan.window.to) last++;
        if (last > first) dayPunches = mine.slice(first, last);
      }
      out.push({ person, result: computePlannedDay(plan, dayPunches, now), rule });
    }
  }
  return out;
}

/** How many shift rows one write carries at most (one transaction each when the month is computed). */
const WRITE_BATCH_ROWS = 40_000;

const MINUTE_MS = 60_000;

/**
 * The first instant after `now` at which a computed shift changes state by time alone (no punch):
 * its start (upcoming → not yet in), its end (not yet in → absent), the end of its punch-out
 * window (on duty → missing punch-out); null when it changes no more by waiting.
 */
function nextChange(s: DayResult['shifts'][number], rule: repo.RuleVersion): number | null {
  switch (s.state) {
    case 'upcoming':
      return s.startAt;
    case 'notYetIn':
      return s.endAt;
    case 'onDuty':
      return s.endAt + rule.lateOutMinutes * MINUTE_MS + 1;
    default:
      return null;
  }
}

/**
 * Computes and stores the days of some staff (working days only; days off leave no row), in
 * batches of whole days: each batch is written (and `closeDays` of its days marked closed) in one
 * transaction of its own, so a month of many staff never holds one long transaction. Answers, per
 * day, the first instant one of its shifts changes by time alone (`nextChange`; null: none).
 */
async function storeDays(
  db: DbOrTx,
  tenant: TenantScope,
  timeZone: string,
  days: string[],
  staff: repo.StaffMember[],
  rules: Rules,
  now: number,
  closeDays: ReadonlySet<string> = new Set(),
): Promise<Map<string, number | null>> {
  const computed = await computeDays(db, tenant, timeZone, days, staff, rules, now);
  const byDay = new Map<string, repo.DayWrite[]>(days.map((d) => [d, []]));
  const changes = new Map<string, number | null>(days.map((d) => [d, null]));
  for (const { person, result, rule } of computed)
    for (const s of result.shifts) {
      const next = nextChange(s, rule);
      const known = changes.get(result.date)!;
      if (next !== null && (known === null || next < known)) changes.set(result.date, next);
      byDay.get(result.date)!.push({
        personId: person.personId,
        day: result.date,
        shift: s.shift,
        departmentId: person.departmentId,
        ruleId: rule.id,
        startAt: s.startAt,
        endAt: s.endAt,
        inAt: s.inAt,
        outAt: s.outAt,
        state: s.state,
        lateMinutes: s.lateMinutes,
        late: s.late,
        earlyMinutes: s.earlyMinutes,
        leftEarly: s.leftEarly,
      });
    }
  const personIds = staff.map((p) => p.personId);
  // Days computed the first time (no row yet) take plain inserts.
  const written = await repo.daysWithRows(db, tenant, days);
  let batch: string[] = [];
  let rows: repo.DayWrite[] = [];
  const write = async () => {
    if (!batch.length) return;
    const [batchDays, batchRows] = [batch, rows];
    [batch, rows] = [[], []];
    await db.transaction(async (tx) => {
      await repo.replaceDays(tx, tenant, personIds, batchDays, batchRows, {
        empty: batchDays.every((d) => !written.has(d)),
      });
      await repo.markClosed(
        tx,
        tenant.housingEstateId,
        batchDays.filter((d) => closeDays.has(d)),
      );
    });
  };
  for (const day of days) {
    const dayRows = byDay.get(day)!;
    if (batch.length && rows.length + dayRows.length > WRITE_BATCH_ROWS) await write();
    batch.push(day);
    rows = rows.concat(dayRows);
  }
  await write();
  return changes;
}

/**
 * Makes sure the stored days of a range are computed, up to today: a day two or more days past is
 * computed once and then closed (nothing of it can change but an approved make-up, which
 * recomputes that person's day). Yesterday (a night shift may still run) and today stay open:
 * computed for everyone and recorded in checkin_open_day with the fingerprint of the staff, rules
 * and holidays they came from and the first instant a shift changes by time alone; a later read
 * computes them again only when that fingerprint changed or that instant passed. A punch or an
 * approved make-up recomputes its own person's day in its transaction (`recomputePerson`), and a
 * punch stored while the open days were being computed (its id past the newest one read first)
 * leaves them unrecorded, computed again on the next read. Set-based: the staff, the rules and
 * the range's punches are read once, every day computed in memory, and written in batches of
 * days (see `storeDays`).
 */
export async function ensureDays(db: DbOrTx, tenant: TenantScope, from: string, to: string): Promise<void> {
  const { timeZone, today } = await repo.estateClock(db, tenant.housingEstateId);
  const last = to > today ? today : to;
  if (from > last) return;
  const closed = await repo.closedDays(db, tenant.housingEstateId, from, last);
  const open = daysBetween(from, last).filter((d) => !closed.has(d));
  if (!open.length) return;
  const closing = new Set(open.filter((d) => d < addDays(today, -1)));
  const stillOpen = open.filter((d) => !closing.has(d));
  // Read before the punches: a punch stored from here on has a greater id.
  const lastPunch = await repo.lastPunchId(db, tenant);
  const stamp = await repo.dayInputsStamp(db, tenant);
  const now = Date.now();
  const fresh = await repo.freshOpenDays(db, tenant.housingEstateId, stillOpen, stamp, new Date(now));
  const due = open.filter((d) => closing.has(d) || !fresh.has(d));
  if (!due.length) return;
  const staff = await repo.staffMembers(db, tenant);
  const rules = await loadRules(db, tenant);
  const changes = await storeDays(db, tenant, timeZone, due, staff, rules, now, closing);
  const computedOpen = due.filter((d) => !closing.has(d));
  if (computedOpen.length && (await repo.lastPunchId(db, tenant)) === lastPunch)
    await repo.markOpenDays(
      db,
      tenant.housingEstateId,
      computedOpen.map((day) => ({ day, validUntil: changes.get(day) ?? null })),
      stamp,
      new Date(now),
    );
}

/**
 * Recomputes and stores one person's days (after a punch or an approved make-up), and brings an
 * open day's recorded "holds until" forward when this person's next change comes sooner.
 */
async function recomputePerson(db: DbOrTx, tenant: TenantScope, personId: number, days: string[]): Promise<void> {
  const { timeZone } = await repo.estateClock(db, tenant.housingEstateId);
  const staff = await repo.staffMembers(db, tenant, [personId]);
  const rules = await loadRules(db, tenant);
  const changes = await storeDays(db, tenant, timeZone, days, staff, rules, Date.now());
  for (const [day, at] of changes) if (at !== null) await repo.bringOpenDayForward(db, tenant.housingEstateId, day, at);
}

// ---- rules and holidays ----

/** GET /base/checkin/staff */
export async function staffAndDepartments(ctx: AuthedContext) {
  const [departments, staff] = await Promise.all([
    repo.departments(ctx.db, ctx.tenant),
    repo.staffMembers(ctx.db, ctx.tenant),
  ]);
  return { departments, staff: staff.map(({ personId, name, departmentId }) => ({ personId, name, departmentId })) };
}

export async function listRules(
  ctx: AuthedContext,
  f: { departmentId?: number; personId?: number },
): Promise<CheckinRuleRow[]> {
  const { today } = await repo.estateClock(ctx.db, ctx.tenant.housingEstateId);
  return repo.ruleRows(ctx.db, ctx.tenant, today, f);
}

export async function saveRule(ctx: AuthedContext, body: CheckinRuleSave): Promise<CheckinRuleRow> {
  const { today } = await repo.estateClock(ctx.db, ctx.tenant.housingEstateId);
  if (body.effectiveFrom < today) throw AppError.badRequest('checkin.errors.closedDay', { day: today });
  if (!(await repo.ownerExists(ctx.db, ctx.tenant, body))) throw AppError.notFound();
  const id = await ctx.db.transaction(async (tx) => {
    const saved = await repo.saveRule(tx, ctx.tenant, {
      departmentId: body.personId ? null : body.departmentId,
      personId: body.personId ?? null,
      effectiveFrom: body.effectiveFrom,
      workDays: [...body.workDays].sort(),
      shifts: body.shifts,
      lateGraceMinutes: body.lateGraceMinutes,
      earlyGraceMinutes: body.earlyGraceMinutes,
      earlyInMinutes: body.earlyInMinutes,
      lateOutMinutes: body.lateOutMinutes,
      placeName: body.placeName || null,
      lat: body.lat,
      lng: body.lng,
      radiusMetres: body.radiusMetres,
      createdBy: ctx.caller.personId,
    });
    // A version from today changes today's board: its rows are computed again with it.
    if (body.effectiveFrom === today) await refreshWholeBoard(tx, ctx.tenant);
    return saved;
  });
  const rows = await repo.ruleRows(ctx.db, ctx.tenant, today, {});
  return rows.find((r) => r.ruleId === id)!;
}

export async function deleteRule(ctx: AuthedContext, id: number): Promise<null> {
  const { today } = await repo.estateClock(ctx.db, ctx.tenant.housingEstateId);
  const rule = await repo.findRule(ctx.db, ctx.tenant, id);
  if (!rule) throw AppError.notFound();
  if (rule.effectiveFrom <= today) throw AppError.badRequest('checkin.errors.ruleInForce');
  await repo.deleteRule(ctx.db, ctx.tenant, id);
  return null;
}

export const listHolidays = (ctx: AuthedContext) => repo.holidays(ctx.db, ctx.tenant);

export async function saveHoliday(ctx: AuthedContext, day: string, name: string): Promise<null> {
  const { today } = await repo.estateClock(ctx.db, ctx.tenant.housingEstateId);
  if (day < today) throw AppError.badRequest('checkin.errors.closedDay', { day: today });
  await ctx.db.transaction(async (tx) => {
    await repo.saveHoliday(tx, ctx.tenant, day, name);
    if (day === today) await refreshWholeBoard(tx, ctx.tenant);
  });
  return null;
}

export async function deleteHoliday(ctx: AuthedContext, day: string): Promise<null> {
  const { today } = await repo.estateClock(ctx.db, ctx.tenant.housingEstateId);
  if (day < today) throw AppError.badRequest('checkin.errors.closedDay', { day: today });
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.deleteHoliday(tx, ctx.tenant, day))) throw AppError.notFound();
    if (day === today) await refreshWholeBoard(tx, ctx.tenant);
  });
  return null;
}

// ---- lists ----

export async function pagePunches(ctx: AuthedContext, body: z.output<typeof CheckinPunchPageSchema>) {
  const { timeZone } = await repo.estateClock(ctx.db, ctx.tenant.housingEstateId);
  const { rows, total } = await repo.pagePunches(ctx.db, ctx.tenant, timeZone, body);
  return listPage(rows, total, body);
}

/** The default range of the day lists: the month up to today. */
async function rangeOf(ctx: AuthedContext, f: { startDate?: string; endDate?: string }) {
  const { today } = await repo.estateClock(ctx.db, ctx.tenant.housingEstateId);
  const to = f.endDate ?? today;
  const from = f.startDate ?? `${to.slice(0, 7)}-01`;
  return { from, to };
}

export async function pageDays(ctx: AuthedContext, body: z.output<typeof CheckinDayPageSchema>) {
  const { from, to } = await rangeOf(ctx, body);
  await ensureDays(ctx.db, ctx.tenant, from, to);
  const { rows, total } = await repo.pageDays(ctx.db, ctx.tenant, { ...body, startDate: from, endDate: to });
  return listPage(rows, total, body);
}

export async function pageMonth(ctx: AuthedContext, body: z.output<typeof CheckinMonthPageSchema>) {
  const first = `${body.month}-01`;
  const last = addDays(`${addDays(first, 31).slice(0, 7)}-01`, -1);
  await ensureDays(ctx.db, ctx.tenant, first, last);
  const { rows, total } = await repo.pageMonth(ctx.db, ctx.tenant, body);
  return listPage(rows, total, body);
}

export async function pageMakeups(ctx: AuthedContext, body: z.output<typeof CheckinMakeupPageSchema>) {
  const { rows, total } = await repo.pageMakeups(ctx.db, ctx.tenant, body);
  return listPage(rows, total, body);
}

// ---- the board ----

/** Where a computed shift puts a person on the board. */
function boardStateOf(s: DayResult['shifts'][number]): BoardState {
  switch (s.state) {
    case 'onDuty':
      return s.late ? 'late' : 'onDuty';
    case 'notYetIn':
      return 'notYetIn';
    case 'absent':
      return 'absent';
    case 'done':
      return s.leftEarly ? 'leftEarly' : 'offDuty';
    default:
      return 'offDuty';
  }
}

/**
 * Computes the duty-board rows of some staff for the estate's today, as things stand at `now`
 * (the rows to store in checkin_today). The shift that decides is the first not over yet
 * (yesterday's night shift included), else today's last; a last punch refused (outside the radius)
 * shows the person out of place. `validUntil`: the first instant one of the person's shifts
 * changes state by time alone (the estate's midnight is noticed by the row's day).
 */
async function computeToday(
  db: DbOrTx,
  tenant: TenantScope,
  clock: { timeZone: string; today: string },
  staff: repo.StaffMember[],
  rules: Rules,
  timelines: Map<number, repo.PunchTimeline>,
  now: number,
): Promise<repo.TodayWrite[]> {
  const { timeZone, today } = clock;
  const yesterday = addDays(today, -1);
  const since = zonedInstant(yesterday, 0, timeZone);
  // Yesterday's shifts count only while they still run (a night shift): only the staff whose rule
  // of yesterday has a shift whose punch-out window is not over are computed for it.
  const running = new Map<number, boolean>();
  const stillRuns = (rule: repo.RuleVersion) => {
    let v = running.get(rule.id);
    if (v === undefined) {
      const plan = planDay(yesterday, rule, rules.holidays, timeZone);
      v = plan.spans.some((x) => x.endAt + rule.lateOutMinutes * MINUTE_MS >= now);
      running.set(rule.id, v);
    }
    return v;
  };
  const night = staff.filter((p) => {
    const rule = rules.ruleFor(p, yesterday);
    return rule !== null && stillRuns(rule);
  });
  const computed = [
    ...(await computeDays(db, tenant, timeZone, [yesterday], night, rules, now, timelines)),
    ...(await computeDays(db, tenant, timeZone, [today], staff, rules, now, timelines)),
  ];
  const shiftsOf = new Map<number, { day: string; s: DayResult['shifts'][number]; rule: repo.RuleVersion }[]>();
  for (const { person, result, rule } of computed)
    for (const s of result.shifts) {
      // Yesterday's shifts matter only while they still run.
      if (result.date === yesterday && s.state !== 'onDuty' && s.state !== 'notYetIn') continue;
      const list = shiftsOf.get(person.personId);
      if (list) list.push({ day: result.date, s, rule });
      else shiftsOf.set(person.personId, [{ day: result.date, s, rule }]);
    }
  return staff.map((person): repo.TodayWrite => {
    const t = timelines.get(person.personId);
    const i = t ? t.at.length - 1 : -1; // the last punch (a punch is at the server's time: none after now)
    const lastPunch = t && i >= 0 && t.at[i] >= since ? { at: t.at[i], inPlace: t.inPlace[i] } : null;
    const shifts = shiftsOf.get(person.personId) ?? [];
    const current =
      shifts.find(({ s }) => s.state === 'notYetIn' || s.state === 'onDuty') ??
      shifts.find(({ s }) => s.state === 'upcoming' && now >= s.startAt) ??
      shifts.findLast(({ s }) => s.state !== 'upcoming') ??
      shifts[0];
    let state: BoardState = current ? boardStateOf(current.s) : 'offDuty';
    if (lastPunch && !lastPunch.inPlace) state = 'outOfPlace';
    let validUntil: number | null = null;
    for (const { s, rule } of shifts) {
      const next = nextChange(s, rule);
      if (next !== null && (validUntil === null || next < validUntil)) validUntil = next;
    }
    return {
      personId: person.personId,
      day: today,
      departmentId: person.departmentId,
      onBoard: !!rules.ruleFor(person, today) || shifts.length > 0,
      state,
      shiftDay: current ? current.day : null,
      shift: current ? current.s.shift : null,
      startAt: current ? current.s.startAt : null,
      endAt: current ? current.s.endAt : null,
      inAt: current?.s.inAt ?? null,
      outAt: current?.s.outAt ?? null,
      lateMinutes: current?.s.late ? current.s.lateMinutes : 0,
      lastPunchAt: lastPunch ? lastPunch.at : null,
      outOfPlace: !!lastPunch && !lastPunch.inPlace,
      validUntil,
    };
  });
}

const isoOfMs = (at: number | null) => (at === null ? null : new Date(at).toISOString());

/** A computed board row as the board and the `checkin` topic answer it. */
function boardRowOf(person: repo.StaffMember, r: repo.TodayWrite): CheckinBoardRow {
  return {
    personId: person.personId,
    personName: person.name,
    departmentName: person.departmentName,
    state: r.state as BoardState,
    startAt: isoOfMs(r.startAt),
    endAt: isoOfMs(r.endAt),
    inAt: isoOfMs(r.inAt),
    lateMinutes: r.lateMinutes,
    lastPunchAt: isoOfMs(r.lastPunchAt),
  };
}

/**
 * Computes and stores the duty-board rows of some staff (every staff member without `personIds`)
 * in the caller's transaction: a punch, an approved make-up, a rule or holiday of today, or a
 * board read that found them stale. `watermark`: the estate's newest punch id the computation
 * sees (a punch's own id in its transaction). Answers the rows on the board (for the topic).
 */
export async function refreshToday(
  db: DbOrTx,
  tenant: TenantScope,
  personIds: number[] | undefined,
  watermark: number,
): Promise<{ day: string; rows: CheckinBoardRow[]; off: number[] }> {
  const clock = await repo.estateClock(db, tenant.housingEstateId);
  const staff = await repo.staffMembers(db, tenant, personIds);
  if (!staff.length) return { day: clock.today, rows: [], off: [] };
  const rules = await loadRules(db, tenant);
  const timelines = await repo.boardPunches(db, tenant, personIds && personIds.length <= 500 ? personIds : undefined);
  const written = await computeToday(db, tenant, clock, staff, rules, timelines, Date.now());
  await repo.writeToday(db, tenant, written, watermark);
  const rows: CheckinBoardRow[] = [];
  const off: number[] = [];
  written.forEach((r, i) => (r.onBoard ? rows.push(boardRowOf(staff[i], r)) : off.push(r.personId)));
  return { day: clock.today, rows, off };
}

/** Every staff member's board row computed again (a rule or holiday of today), after a board read in progress. */
async function refreshWholeBoard(tx: DbOrTx, tenant: TenantScope): Promise<void> {
  await repo.lockTodayRows(tx, tenant);
  await refreshToday(tx, tenant, undefined, await repo.lastPunchId(tx, tenant));
}

/**
 * GET /base/checkin/board: today, from the stored rows (checkin_today, one indexed read with the
 * staff's names and departments); the rows found stale (see `repo.readToday`) are computed and
 * stored first, usually none (the estate's midnight or a shift's start or end: everyone's once).
 */
export async function board(ctx: AuthedContext): Promise<CheckinBoard> {
  // Read before the rows: a punch stored from here on has a greater id (its own row wins).
  const watermark = await repo.lastPunchId(ctx.db, ctx.tenant);
  const stored = await repo.readToday(ctx.db, ctx.tenant);
  const stale = stored.filter((r) => r.stale).map((r) => r.personId);
  const fresh = stale.length
    ? await ctx.db.transaction(async (tx) => {
        await repo.lockTodayRows(tx, ctx.tenant);
        return refreshToday(tx, ctx.tenant, stale, watermark);
      })
    : { rows: [], off: [] };
  const computed = new Map(fresh.rows.map((r) => [r.personId, r]));
  const rows: CheckinBoardRow[] = [];
  for (const r of stored) {
    const row = computed.get(r.personId);
    if (row) rows.push(row);
    else if (!r.stale && r.onBoard)
      rows.push({
        personId: r.personId,
        personName: r.name,
        departmentName: r.departmentName,
        state: r.state as BoardState,
        startAt: isoOrNull(r.startAt),
        endAt: isoOrNull(r.endAt),
        inAt: isoOrNull(r.inAt),
        lateMinutes: r.lateMinutes ?? 0,
        lastPunchAt: isoOrNull(r.lastPunchAt),
      });
  }
  const totals = Object.fromEntries(BOARD_STATES.map((s) => [s, 0])) as Record<BoardState, number>;
  for (const r of rows) totals[r.state]++;
  const clock = stored[0] ?? (await repo.estateClock(ctx.db, ctx.tenant.housingEstateId));
  return { day: clock.today, timeZone: clock.timeZone, rows, totals };
}

// ---- the staff app ----

/** The staff member calling, with their rule of today (400 when they have none). */
async function callerAsStaff(ctx: AuthedContext): Promise<repo.StaffMember> {
  const [me] = await repo.staffMembers(ctx.db, ctx.tenant, [ctx.caller.personId]);
  if (!me) throw AppError.badRequest('checkin.errors.noRule');
  return me;
}

/** The day and shift a punch at `at` counts for: yesterday's night shift first for a punch-out. */
function placePunch(rules: Rules, me: repo.StaffMember, today: string, timeZone: string, punch: Punch) {
  const yesterday = addDays(today, -1);
  const order = punch.kind === 'out' ? [yesterday, today] : [today, yesterday];
  for (const day of order) {
    const rule = rules.ruleFor(me, day);
    if (!rule || !rule.workDays.length) continue;
    const computed = computeDay({ date: day, rule, holidays: rules.holidays, timeZone, punches: [], now: punch.at });
    if (!computed.workDay) continue;
    const shift = shiftOfPunch(day, rule, timeZone, punch);
    if (shift !== null) return { day, shift, rule };
  }
  return { day: null, shift: null, rule: rules.ruleFor(me, today) ?? rules.ruleFor(me, yesterday) };
}

/** The answer of a stored punch (also to a retried request). */
async function answerOf(ctx: AuthedContext, p: repo.PunchRecord, radius: number): Promise<PunchAnswer> {
  if (!p.inPlace) throw AppError.badRequest('checkin.errors.outOfPlace', { distance: p.distanceMetres ?? 0, radius });
  const shifts = p.day ? await repo.daysOf(ctx.db, ctx.tenant, p.personId, p.day) : [];
  const s = shifts.find((x) => x.shift === p.shift);
  return {
    punchId: p.id,
    kind: p.kind,
    at: p.at.toISOString(),
    distanceMetres: p.distanceMetres ?? 0,
    day: p.day,
    shift: p.shift,
    shiftStart: s?.startAt ?? null,
    shiftEnd: s?.endAt ?? null,
    lateMinutes: s?.lateMinutes ?? 0,
  };
}

/**
 * POST /app/checkin/punch: the caller punches at the server's time. Outside the radius the punch
 * is kept as refused (the board shows it) and answered 400 with the distance; a retried request
 * (same idempotency key) is answered from the stored punch.
 */
export async function punch(ctx: AuthedContext, body: z.output<typeof PunchSchema>): Promise<PunchAnswer> {
  const me = await callerAsStaff(ctx);
  const { timeZone, today } = await repo.estateClock(ctx.db, ctx.tenant.housingEstateId);
  const rules = await loadRules(ctx.db, ctx.tenant);
  const at = Date.now();
  const placed = placePunch(rules, me, today, timeZone, { kind: body.kind, at });
  if (!placed.rule) throw AppError.badRequest('checkin.errors.noRule');
  const radius = placed.rule.radiusMetres;
  const again = await repo.punchByKey(ctx.db, me.personId, body.idempotencyKey);
  if (again) return answerOf(ctx, again, radius);
  const distance = Math.round(distanceMetres(body, placed.rule));
  const inPlace = distance <= radius;
  const viewers = await staffWithPermission(ctx.db, ctx.tenant.housingEstateId, 'checkin:view');
  const stored = await withPushes(
    ctx.db,
    ctx.services.realtime,
    async (tx) => {
      const row = await repo.insertPunch(tx, ctx.tenant, {
        personId: me.personId,
        kind: body.kind,
        at: new Date(at),
        lat: body.lat,
        lng: body.lng,
        accuracyMetres: body.accuracyMetres ?? null,
        deviceId: body.deviceId,
        idempotencyKey: body.idempotencyKey,
        distanceMetres: distance,
        inPlace,
        day: inPlace ? placed.day : null,
        shift: inPlace ? placed.shift : null,
      });
      if (!row) return null; // the same request, retried at the same moment, got there first
      if (inPlace && placed.day) await recomputePerson(tx, ctx.tenant, me.personId, [placed.day]);
      // The person's board row, stored and sent with the event: an open board moves them without a reload.
      const today = await refreshToday(tx, ctx.tenant, [me.personId], row.id);
      pushAfterCommit(tx, viewers, {
        channelType: ChannelType.checkinPunch,
        dataId: row.id,
        personId: me.personId,
        action: inPlace ? 'punch' : 'refused',
        kind: body.kind,
        at: row.at.toISOString(),
        day: today.day,
        row: today.rows[0] ?? null,
      });
      return row;
    },
    (err) => ctx.log.error({ err }, 'push after commit failed'),
  );
  return answerOf(ctx, stored ?? (await repo.punchByKey(ctx.db, me.personId, body.idempotencyKey))!, radius);
}

/** GET /app/checkin/today: the caller's shifts of today. */
export async function myToday(ctx: AuthedContext) {
  const me = await callerAsStaff(ctx);
  const { today } = await repo.estateClock(ctx.db, ctx.tenant.housingEstateId);
  await recomputePerson(ctx.db, ctx.tenant, me.personId, [today]);
  return repo.daysOf(ctx.db, ctx.tenant, me.personId, today);
}

/** POST /app/checkin/makeup: the caller asks to make up a punch of one of their shifts. */
export async function requestMakeup(
  ctx: AuthedContext,
  body: z.output<typeof MakeupRequestSchema>,
): Promise<CheckinMakeupRow> {
  const me = await callerAsStaff(ctx);
  const { timeZone, today } = await repo.estateClock(ctx.db, ctx.tenant.housingEstateId);
  if (body.day > today) throw AppError.badRequest('checkin.errors.futureDay');
  const rules = await loadRules(ctx.db, ctx.tenant);
  const rule = rules.ruleFor(me, body.day);
  const shift = rule?.shifts[body.shift];
  if (
    !rule ||
    !shift ||
    !computeDay({ date: body.day, rule, holidays: rules.holidays, timeZone, punches: [], now: 0 }).workDay
  )
    throw AppError.badRequest('checkin.errors.noShift');
  // A time before the start of a shift past midnight is on the next day.
  const minutes = clockMinutes(body.time);
  const { startAt, endAt } = shiftSpan(body.day, shift, timeZone);
  const overnight = endAt - startAt > 0 && clockMinutes(shift.end) <= clockMinutes(shift.start);
  const at = zonedInstant(
    body.day,
    minutes + (overnight && minutes < clockMinutes(shift.start) ? 24 * 60 : 0),
    timeZone,
  );
  if (at > Date.now()) throw AppError.badRequest('checkin.errors.futureDay');
  if (shiftOfPunch(body.day, rule, timeZone, { kind: body.kind, at }) !== body.shift)
    throw AppError.badRequest('checkin.errors.timeOutsideShift');
  const id = await ctx.db.transaction(async (tx) => {
    if (await repo.hasPendingMakeup(tx, me.personId, body.day, body.shift))
      throw AppError.conflict('checkin.errors.makeupPending');
    return repo.insertMakeup(tx, ctx.tenant, {
      personId: me.personId,
      day: body.day,
      shift: body.shift,
      kind: body.kind,
      at: new Date(at),
      reason: body.reason,
    });
  });
  return (await repo.findMakeup(ctx.db, ctx.tenant, id))!;
}

/** POST /base/checkin/makeup/review: approve (a make-up punch, the day recomputed) or refuse. */
export async function reviewMakeup(
  ctx: AuthedContext,
  body: { makeupId: number; approve: boolean; note?: string },
): Promise<CheckinMakeupRow> {
  const viewers = await staffWithPermission(ctx.db, ctx.tenant.housingEstateId, 'checkin:view');
  await withPushes(
    ctx.db,
    ctx.services.realtime,
    async (tx) => {
      const m = await repo.lockMakeup(tx, ctx.tenant, body.makeupId);
      if (!m) throw AppError.notFound();
      if (m.status !== MAKEUP_STATUSES.pending) throw AppError.conflict('checkin.errors.makeupReviewed');
      await repo.reviewMakeup(tx, m.id, {
        status: body.approve ? MAKEUP_STATUSES.approved : MAKEUP_STATUSES.refused,
        reviewerPersonId: ctx.caller.personId,
        reviewNote: body.note || null,
      });
      let today: Awaited<ReturnType<typeof refreshToday>> | null = null;
      if (body.approve) {
        const punched = await repo.insertPunch(tx, ctx.tenant, {
          personId: m.personId,
          kind: m.kind,
          at: m.at,
          inPlace: true,
          source: 'makeup',
          idempotencyKey: `makeup-${m.id}`,
          day: m.day,
          shift: m.shift,
        });
        await recomputePerson(tx, ctx.tenant, m.personId, [m.day]);
        if (punched) today = await refreshToday(tx, ctx.tenant, [m.personId], punched.id);
      }
      pushAfterCommit(tx, viewers, {
        channelType: ChannelType.checkinPunch,
        dataId: m.id,
        personId: m.personId,
        action: 'makeup',
        ...(today ? { day: today.day, row: today.rows[0] ?? null } : {}),
      });
    },
    (err) => ctx.log.error({ err }, 'push after commit failed'),
  );
  return (await repo.findMakeup(ctx.db, ctx.tenant, body.makeupId))!;
}
