import { and, eq, sql, type SQL } from 'drizzle-orm';
import type {
  CheckinDayRow,
  CheckinMakeupRow,
  CheckinMonthRow,
  CheckinPunchRow,
  CheckinRuleRow,
  ShiftStateName,
} from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import {
  checkinClosedDay,
  checkinHoliday,
  checkinMakeup,
  checkinOpenDay,
  checkinPunch,
  checkinRuleVersion,
} from '../../db/schema';
import { isoOrNull, likePattern, pageRows, queryRows, scopedTo } from '../../db/sql';
import type { TenantScope } from '../../http/request-context';
import type { Rule } from './checkin-rules';

// The SQL of staff check-in (issue 32). Staff are the estate's person_company rows (the
// enterprise-management tables), each with their department.

/**
 * Holds the estate's duty-board rows for every recomputation of the whole board (a rule or
 * holiday of today, a board read finding rows stale) until the caller's transaction ends: a board
 * read that waits here reads the rules only once a rule change has committed, and a rule change
 * that waits here writes after the read, so a read never stores rows of the rules before.
 */
export async function lockTodayRows(tx: DbOrTx, tenant: TenantScope): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('checkin_today'), ${tenant.housingEstateId}::int)`);
}

/** The estate's time zone and its today. */
export async function estateClock(db: DbOrTx, estateId: number): Promise<{ timeZone: string; today: string }> {
  const [row] = await queryRows<{ time_zone: string; today: string }>(
    db,
    sql`select time_zone, (now() at time zone time_zone)::date::text as today from housing_estate where id = ${estateId}`,
  );
  return { timeZone: row.time_zone, today: row.today };
}

export interface StaffMember {
  personId: number;
  name: string;
  departmentId: number | null;
  departmentName: string | null;
}

/** The estate's staff (person_company), optionally only some people. */
export async function staffMembers(db: DbOrTx, tenant: TenantScope, personIds?: number[]): Promise<StaffMember[]> {
  const only = personIds ? sql`and pc.person_id = any(${sql.param(personIds)}::int[])` : sql``;
  return queryRows<StaffMember>(
    db,
    sql`select pc.person_id as "personId", p.name, pc.department_id as "departmentId", d.name as "departmentName"
        from person_company pc
        join person p on p.id = pc.person_id
        left join department d on d.id = pc.department_id
        where pc.company_id = ${tenant.companyId} and pc.housing_estate_id = ${tenant.housingEstateId} ${only}
        order by p.name, pc.person_id`,
  );
}

export async function departments(db: DbOrTx, tenant: TenantScope): Promise<{ departmentId: number; name: string }[]> {
  return queryRows(
    db,
    sql`select id as "departmentId", name from department
        where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId} order by sort, id`,
  );
}

export type RuleVersion = Rule & {
  id: number;
  departmentId: number | null;
  personId: number | null;
  placeName: string | null;
  lat: number;
  lng: number;
  radiusMetres: number;
};

/** Every rule version of the estate. */
export async function ruleVersions(db: DbOrTx, tenant: TenantScope): Promise<RuleVersion[]> {
  return db
    .select()
    .from(checkinRuleVersion)
    .where(scopedTo(checkinRuleVersion, tenant))
    .orderBy(checkinRuleVersion.effectiveFrom);
}

export async function ruleRows(
  db: DbOrTx,
  tenant: TenantScope,
  today: string,
  f: { departmentId?: number; personId?: number },
): Promise<CheckinRuleRow[]> {
  const where: SQL[] = [sql`r.company_id = ${tenant.companyId} and r.housing_estate_id = ${tenant.housingEstateId}`];
  if (f.departmentId) where.push(sql`r.department_id = ${f.departmentId}`);
  if (f.personId) where.push(sql`r.person_id = ${f.personId}`);
  const rows = await queryRows<Omit<CheckinRuleRow, 'current'> & { current: boolean }>(
    db,
    sql`select r.id as "ruleId", r.department_id as "departmentId", d.name as "departmentName",
               r.person_id as "personId", p.name as "personName", r.effective_from::text as "effectiveFrom",
               r.work_days as "workDays", r.shifts, r.late_grace_minutes as "lateGraceMinutes",
               r.early_grace_minutes as "earlyGraceMinutes", r.early_in_minutes as "earlyInMinutes",
               r.late_out_minutes as "lateOutMinutes", r.place_name as "placeName", r.lat, r.lng,
               r.radius_metres as "radiusMetres",
               r.effective_from = (select max(o.effective_from) from checkin_rule_version o
                                   where o.housing_estate_id = r.housing_estate_id
                                     and o.department_id is not distinct from r.department_id
                                     and o.person_id is not distinct from r.person_id
                                     and o.effective_from <= ${today}::date) as current
        from checkin_rule_version r
        left join department d on d.id = r.department_id
        left join person p on p.id = r.person_id
        where ${sql.join(where, sql` and `)}
        order by r.person_id nulls first, d.name, p.name, r.effective_from, r.id`,
  );
  return rows.map((r) => ({ ...r, current: !!r.current }));
}

export type RuleValues = Omit<
  typeof checkinRuleVersion.$inferInsert,
  'id' | 'companyId' | 'housingEstateId' | 'createdAt'
>;

/** A new version, or the one of the same owner and day replaced; answers its id. */
export async function saveRule(db: DbOrTx, tenant: TenantScope, v: RuleValues): Promise<number> {
  const owner =
    v.personId != null
      ? eq(checkinRuleVersion.personId, v.personId)
      : and(eq(checkinRuleVersion.departmentId, v.departmentId!), sql`${checkinRuleVersion.personId} is null`);
  const [same] = await db
    .select({ id: checkinRuleVersion.id })
    .from(checkinRuleVersion)
    .where(and(scopedTo(checkinRuleVersion, tenant), owner, eq(checkinRuleVersion.effectiveFrom, v.effectiveFrom)));
  if (same) {
    await db.update(checkinRuleVersion).set(v).where(eq(checkinRuleVersion.id, same.id));
    return same.id;
  }
  const [row] = await db
    .insert(checkinRuleVersion)
    .values({ ...tenant, ...v })
    .returning({ id: checkinRuleVersion.id });
  return row.id;
}

export async function findRule(db: DbOrTx, tenant: TenantScope, id: number) {
  const [row] = await db
    .select()
    .from(checkinRuleVersion)
    .where(and(scopedTo(checkinRuleVersion, tenant), eq(checkinRuleVersion.id, id)));
  return row ?? null;
}

export async function deleteRule(db: DbOrTx, tenant: TenantScope, id: number): Promise<void> {
  await db.delete(checkinRuleVersion).where(and(scopedTo(checkinRuleVersion, tenant), eq(checkinRuleVersion.id, id)));
}

/** Whether the department (or person) is one of the estate's. */
export async function ownerExists(
  db: DbOrTx,
  tenant: TenantScope,
  owner: { departmentId?: number; personId?: number },
): Promise<boolean> {
  const rows = await queryRows<{ ok: number }>(
    db,
    owner.departmentId
      ? sql`select 1 as ok from department where id = ${owner.departmentId}
            and company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}`
      : sql`select 1 as ok from person_company where person_id = ${owner.personId ?? 0}
            and company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}`,
  );
  return rows.length > 0;
}

export async function holidays(db: DbOrTx, tenant: TenantScope): Promise<{ day: string; name: string }[]> {
  return db
    .select({ day: checkinHoliday.day, name: checkinHoliday.name })
    .from(checkinHoliday)
    .where(scopedTo(checkinHoliday, tenant))
    .orderBy(checkinHoliday.day);
}

export async function saveHoliday(db: DbOrTx, tenant: TenantScope, day: string, name: string): Promise<void> {
  await db
    .insert(checkinHoliday)
    .values({ ...tenant, day, name })
    .onConflictDoUpdate({ target: [checkinHoliday.housingEstateId, checkinHoliday.day], set: { name } });
}

export async function deleteHoliday(db: DbOrTx, tenant: TenantScope, day: string): Promise<number> {
  const rows = await db
    .delete(checkinHoliday)
    .where(and(scopedTo(checkinHoliday, tenant), eq(checkinHoliday.day, day)))
    .returning({ id: checkinHoliday.id });
  return rows.length;
}

export type PunchRecord = typeof checkinPunch.$inferSelect;
export type PunchValues = Omit<typeof checkinPunch.$inferInsert, 'id' | 'companyId' | 'housingEstateId' | 'createdAt'>;

export async function punchByKey(db: DbOrTx, personId: number, key: string): Promise<PunchRecord | null> {
  const [row] = await db
    .select()
    .from(checkinPunch)
    .where(and(eq(checkinPunch.personId, personId), eq(checkinPunch.idempotencyKey, key)));
  return row ?? null;
}

/** Stores a punch; null when one with the same idempotency key got there first. */
export async function insertPunch(db: DbOrTx, tenant: TenantScope, v: PunchValues): Promise<PunchRecord | null> {
  const [row] = await db
    .insert(checkinPunch)
    .values({ ...tenant, ...v })
    .onConflictDoNothing({ target: [checkinPunch.personId, checkinPunch.idempotencyKey] })
    .returning();
  return row ?? null;
}

/** A person's punches in time order (ties by id): instants (ms), kinds, accepted or refused. */
export interface PunchTimeline {
  at: number[];
  kind: ('in' | 'out')[];
  inPlace: boolean[];
}

/**
 * The punches of some people (all the estate's without `personIds`) from an instant (to another),
 * each person's in time order (ties by id): one row per person, the punches aggregated in SQL
 * into one string "ms kind accepted" each ("1767225600000it,…"), as a month of 2,000 staff is
 * ~250,000 punches: one row each would cost more to carry and parse than to compute with.
 * `acceptedOnly`: in-place punches only (those a day counts).
 */
export async function punchTimelines(
  db: DbOrTx,
  tenant: TenantScope,
  from: Date,
  to: Date | null,
  opts: { personIds?: number[]; acceptedOnly: boolean },
): Promise<Map<number, PunchTimeline>> {
  const rows = await queryRows<{ person_id: number; punches: string }>(
    db,
    sql`select person_id,
               string_agg(round(date_part('epoch', at) * 1000)::bigint::text
                          || case when kind = 'in' then 'i' else 'o' end || case when in_place then 't' else 'f' end,
                          ',' order by at, id) as punches
        from checkin_punch
        where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
          and at >= ${from.toISOString()} ${to ? sql`and at <= ${to.toISOString()}` : sql``}
          ${opts.acceptedOnly ? sql`and in_place` : sql``}
          ${opts.personIds ? sql`and person_id = any(${sql.param(opts.personIds)}::int[])` : sql``}
        group by person_id`,
  );
  const out = new Map<number, PunchTimeline>();
  for (const r of rows) {
    const t: PunchTimeline = { at: [], kind: [], inPlace: [] };
    for (const token of r.punches.split(',')) {
      const n = token.length;
      t.at.push(Number(token.slice(0, n - 2)));
      t.kind.push(token[n - 2] === 'i' ? 'in' : 'out');
      t.inPlace.push(token[n - 1] === 't');
    }
    out.set(Number(r.person_id), t);
  }
  return out;
}

/**
 * The punches the duty board can need, each person's in time order (ties by id): from the
 * earliest punch-in window of yesterday's shifts on (yesterday's midnight in the estate's zone,
 * less the longest "punch-in counts from" of its rules), which also holds every punch "since
 * yesterday began". The bound is computed in the same statement, so the board reads this beside
 * the clock, the staff and the rules. One aggregate in the order of the `checkin_punch_list`
 * index, which holds every column read (an index-only scan): "personId ms kind accepted" each
 * ("12 1767225600000it,…"), grouped by person here; cheaper than grouping in SQL, which sorts
 * every person's punches apart.
 */
export async function boardPunches(
  db: DbOrTx,
  tenant: TenantScope,
  personIds?: number[],
): Promise<Map<number, PunchTimeline>> {
  const [row] = await queryRows<{ punches: string | null }>(
    db,
    sql`select string_agg(person_id::text || ' ' || round(date_part('epoch', at) * 1000)::bigint::text
                          || case when kind = 'in' then 'i' else 'o' end || case when in_place then 't' else 'f' end,
                          ',' order by at, id) as punches
        from checkin_punch
        where housing_estate_id = ${tenant.housingEstateId} and company_id = ${tenant.companyId}
          ${personIds ? sql`and person_id = any(${sql.param(personIds)}::int[])` : sql``}
          and at >= (select ((now() at time zone he.time_zone)::date - 1)::timestamp at time zone he.time_zone
                            - coalesce((select max(r.early_in_minutes) from checkin_rule_version r
                                        where r.housing_estate_id = he.id and r.company_id = he.company_id), 0)
                              * interval '1 minute'
                     from housing_estate he where he.id = ${tenant.housingEstateId})`,
  );
  const out = new Map<number, PunchTimeline>();
  if (!row?.punches) return out;
  for (const token of row.punches.split(',')) {
    const space = token.indexOf(' ');
    const personId = Number(token.slice(0, space));
    let t = out.get(personId);
    if (!t) out.set(personId, (t = { at: [], kind: [], inPlace: [] }));
    const n = token.length;
    t.at.push(Number(token.slice(space + 1, n - 2)));
    t.kind.push(token[n - 2] === 'i' ? 'in' : 'out');
    t.inPlace.push(token[n - 1] === 't');
  }
  return out;
}

/** One computed shift to store: instants as ms since the epoch. */
export interface DayWrite {
  personId: number;
  day: string;
  shift: number;
  departmentId: number | null;
  ruleId: number;
  startAt: number;
  endAt: number;
  inAt: number | null;
  outAt: number | null;
  state: string;
  lateMinutes: number;
  late: boolean;
  earlyMinutes: number;
  leftEarly: boolean;
}

const DAY_COLUMNS = sql.raw(`person_id, day, shift, department_id, rule_id, start_at, end_at, in_at, out_at, state,
  late_minutes, late, early_minutes, left_early`);

/** One column of rows as one text parameter, its values joined by commas (an empty value: null). */
function column(rows: DayWrite[], pick: (r: DayWrite) => string | number | boolean | null, type: string): SQL {
  const text = rows.map((r) => {
    const v = pick(r);
    return v === null ? '' : v === true ? 't' : v === false ? 'f' : String(v);
  });
  return sql`string_to_array(${text.join(',')}::text, ',', '')::${sql.raw(type)}[]`;
}

/** An instant column (ms since the epoch) as timestamptz, exactly. */
const instant = (name: string) => sql.raw(`timestamptz 'epoch' + n.${name} * interval '1 millisecond'`);

/** The rows to write, as the `select` of an insert into checkin_day (company, estate, then DAY_COLUMNS). */
const dayValues = (tenant: TenantScope, rows: DayWrite[]) => sql`
    select ${tenant.companyId}::int, ${tenant.housingEstateId}::int, n.person_id, n.day, n.shift, n.department_id,
           n.rule_id, ${instant('start_at')}, ${instant('end_at')}, ${instant('in_at')}, ${instant('out_at')},
           n.state, n.late_minutes, n.late, n.early_minutes, n.left_early
    from unnest(${column(rows, (r) => r.personId, 'int')}, ${column(rows, (r) => r.day, 'date')},
                ${column(rows, (r) => r.shift, 'smallint')}, ${column(rows, (r) => r.departmentId, 'int')},
                ${column(rows, (r) => r.ruleId, 'int')}, ${column(rows, (r) => r.startAt, 'bigint')},
                ${column(rows, (r) => r.endAt, 'bigint')}, ${column(rows, (r) => r.inAt, 'bigint')},
                ${column(rows, (r) => r.outAt, 'bigint')}, ${column(rows, (r) => r.state, 'text')},
                ${column(rows, (r) => r.lateMinutes, 'int')}, ${column(rows, (r) => r.late, 'boolean')},
                ${column(rows, (r) => r.earlyMinutes, 'int')}, ${column(rows, (r) => r.leftEarly, 'boolean')})
      as n(${DAY_COLUMNS})`;

/** Of some days, those holding a computed shift of the estate. */
export async function daysWithRows(db: DbOrTx, tenant: TenantScope, days: string[]): Promise<Set<string>> {
  if (!days.length) return new Set();
  const rows = await queryRows<{ day: string }>(
    db,
    sql`select d::date::text as day from unnest(${sql.param(days)}::date[]) d
        where exists (select 1 from checkin_day x where x.housing_estate_id = ${tenant.housingEstateId} and x.day = d)`,
  );
  return new Set(rows.map((r) => r.day));
}

/**
 * Replaces the computed shifts of some people's days with `rows` (which hold only those people and
 * days), in bulk: each column travels as one text parameter (string_to_array and unnest make rows
 * of them again: no parameter per value, nothing to escape), one statement removes the shifts that
 * no longer exist (a rule with fewer shifts, a day no longer worked) and one upsert writes the
 * rest, leaving a row that did not change untouched (no dead row for an open day recomputed to
 * the same).
 */
export async function replaceDays(
  db: DbOrTx,
  tenant: TenantScope,
  personIds: number[],
  days: string[],
  rows: DayWrite[],
  opts: { empty?: boolean } = {},
): Promise<void> {
  if (!personIds.length || !days.length) return;
  // Days holding no row yet (a month computed the first time): a plain insert, nothing to remove.
  if (opts.empty) {
    // (Another computation of the same days at the same moment wrote the same rows: kept.)
    if (rows.length)
      await db.execute(sql`insert into checkin_day (company_id, housing_estate_id, ${DAY_COLUMNS})
        ${dayValues(tenant, rows)} on conflict (person_id, day, shift) do nothing`);
    return;
  }
  const keys = sql`unnest(${column(rows, (r) => r.personId, 'int')}, ${column(rows, (r) => r.day, 'date')},
    ${column(rows, (r) => r.shift, 'smallint')})`;
  await db.execute(sql`delete from checkin_day x
    where x.company_id = ${tenant.companyId} and x.housing_estate_id = ${tenant.housingEstateId}
      and x.day = any(${sql.param(days)}::date[]) and x.person_id = any(${sql.param(personIds)}::int[])
      ${rows.length ? sql`and not exists (select 1 from ${keys} n(person_id, day, shift) where n.person_id = x.person_id and n.day = x.day and n.shift = x.shift)` : sql``}`);
  if (!rows.length) return;
  await db.execute(sql`insert into checkin_day (company_id, housing_estate_id, ${DAY_COLUMNS}) ${dayValues(tenant, rows)}
    on conflict (person_id, day, shift) do update set company_id = excluded.company_id,
      housing_estate_id = excluded.housing_estate_id, department_id = excluded.department_id,
      rule_id = excluded.rule_id, start_at = excluded.start_at, end_at = excluded.end_at, in_at = excluded.in_at,
      out_at = excluded.out_at, state = excluded.state, late_minutes = excluded.late_minutes, late = excluded.late,
      early_minutes = excluded.early_minutes, left_early = excluded.left_early
    where (checkin_day.company_id, checkin_day.housing_estate_id, checkin_day.department_id, checkin_day.rule_id,
           checkin_day.start_at, checkin_day.end_at, checkin_day.in_at, checkin_day.out_at, checkin_day.state,
           checkin_day.late_minutes, checkin_day.late, checkin_day.early_minutes, checkin_day.left_early)
      is distinct from (excluded.company_id, excluded.housing_estate_id, excluded.department_id, excluded.rule_id,
           excluded.start_at, excluded.end_at, excluded.in_at, excluded.out_at, excluded.state,
           excluded.late_minutes, excluded.late, excluded.early_minutes, excluded.left_early)`);
}

export async function closedDays(db: DbOrTx, estateId: number, from: string, to: string): Promise<Set<string>> {
  const rows = await db
    .select({ day: checkinClosedDay.day })
    .from(checkinClosedDay)
    .where(and(eq(checkinClosedDay.housingEstateId, estateId), sql`${checkinClosedDay.day} between ${from} and ${to}`));
  return new Set(rows.map((r) => r.day));
}

export async function markClosed(db: DbOrTx, estateId: number, days: string[]): Promise<void> {
  if (!days.length) return;
  await db
    .insert(checkinClosedDay)
    .values(days.map((day) => ({ housingEstateId: estateId, day })))
    .onConflictDoNothing();
}

/**
 * The fingerprint of what every day of the estate is computed from besides its punches: the staff
 * (person and department), the rule versions (every field) and the holidays. A change of any of
 * them is a new fingerprint (an open day computed before it is computed again).
 */
export async function dayInputsStamp(db: DbOrTx, tenant: TenantScope): Promise<string> {
  const scope = (t: string) =>
    sql`${sql.raw(t)}.company_id = ${tenant.companyId} and ${sql.raw(t)}.housing_estate_id = ${tenant.housingEstateId}`;
  const [row] = await queryRows<{ stamp: string }>(
    db,
    sql`select md5(coalesce((select string_agg(pc.person_id || ':' || coalesce(pc.department_id, 0), ',' order by pc.person_id)
                             from person_company pc where ${scope('pc')}), '')
               || '|' || coalesce((select string_agg(r::text, ',' order by r.id) from checkin_rule_version r where ${scope('r')}), '')
               || '|' || coalesce((select string_agg(h.day::text, ',' order by h.day) from checkin_holiday h where ${scope('h')}), '')
           ) as stamp`,
  );
  return row.stamp;
}

/** The newest punch of the estate (its id; 0: none): a punch stored after it has a greater id. */
export async function lastPunchId(db: DbOrTx, tenant: TenantScope): Promise<number> {
  const [row] = await queryRows<{ id: number | null }>(
    db,
    sql`select max(id) as id from checkin_punch
        where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}`,
  );
  return Number(row?.id ?? 0);
}

/** Of some open days, those computed from `stamp` whose answer still holds at `now`. */
export async function freshOpenDays(
  db: DbOrTx,
  estateId: number,
  days: string[],
  stamp: string,
  now: Date,
): Promise<Set<string>> {
  if (!days.length) return new Set();
  const rows = await queryRows<{ day: string }>(
    db,
    sql`select day::text as day from checkin_open_day
        where housing_estate_id = ${estateId} and day = any(${sql.param(days)}::date[]) and stamp = ${stamp}
          and (valid_until is null or valid_until > ${now.toISOString()})`,
  );
  return new Set(rows.map((r) => r.day));
}

/** Records open days as computed from `stamp` at `computedAt`, holding until their `validUntil` (ms; null: no change by time). */
export async function markOpenDays(
  db: DbOrTx,
  estateId: number,
  days: { day: string; validUntil: number | null }[],
  stamp: string,
  computedAt: Date,
): Promise<void> {
  if (!days.length) return;
  await db
    .insert(checkinOpenDay)
    .values(
      days.map((d) => ({
        housingEstateId: estateId,
        day: d.day,
        stamp,
        validUntil: d.validUntil === null ? null : new Date(d.validUntil),
        computedAt,
      })),
    )
    .onConflictDoUpdate({
      target: [checkinOpenDay.housingEstateId, checkinOpenDay.day],
      set: { stamp, validUntil: sql`excluded.valid_until`, computedAt },
    });
}

/** A duty-board row of a staff member for the estate's today, as stored in checkin_today (instants in ms). */
export interface TodayWrite {
  personId: number;
  day: string;
  departmentId: number | null;
  onBoard: boolean;
  state: string;
  shiftDay: string | null;
  shift: number | null;
  startAt: number | null;
  endAt: number | null;
  inAt: number | null;
  outAt: number | null;
  lateMinutes: number;
  lastPunchAt: number | null;
  outOfPlace: boolean;
  validUntil: number | null;
}

const TODAY_COLUMNS = sql.raw(`person_id, day, department_id, on_board, state, shift_day, shift, start_at, end_at,
  in_at, out_at, late_minutes, last_punch_at, out_of_place, valid_until`);

/**
 * Writes duty-board rows (checkin_today), one statement (columns as text parameters, as
 * `replaceDays`); a row computed with an older `watermark` (the estate's newest punch id it saw)
 * than the stored one is left as it is: a board read that began before a punch never undoes it.
 */
export async function writeToday(
  db: DbOrTx,
  tenant: TenantScope,
  rows: TodayWrite[],
  watermark: number,
): Promise<void> {
  if (!rows.length) return;
  const col = <T>(pick: (r: TodayWrite) => T, type: string) => {
    const text = rows.map((r) => {
      const v = pick(r) as unknown;
      return v === null ? '' : v === true ? 't' : v === false ? 'f' : String(v);
    });
    return sql`string_to_array(${text.join(',')}::text, ',', '')::${sql.raw(type)}[]`;
  };
  await db.execute(sql`insert into checkin_today (company_id, housing_estate_id, ${TODAY_COLUMNS}, watermark)
    select ${tenant.companyId}::int, ${tenant.housingEstateId}::int, n.person_id, n.day, n.department_id, n.on_board,
           n.state, n.shift_day, n.shift, ${instant('start_at')}, ${instant('end_at')}, ${instant('in_at')},
           ${instant('out_at')}, n.late_minutes, ${instant('last_punch_at')}, n.out_of_place, ${instant('valid_until')},
           ${watermark}::int
    from unnest(${col((r) => r.personId, 'int')}, ${col((r) => r.day, 'date')}, ${col((r) => r.departmentId, 'int')},
                ${col((r) => r.onBoard, 'boolean')}, ${col((r) => r.state, 'text')}, ${col((r) => r.shiftDay, 'date')},
                ${col((r) => r.shift, 'smallint')}, ${col((r) => r.startAt, 'bigint')}, ${col((r) => r.endAt, 'bigint')},
                ${col((r) => r.inAt, 'bigint')}, ${col((r) => r.outAt, 'bigint')}, ${col((r) => r.lateMinutes, 'int')},
                ${col((r) => r.lastPunchAt, 'bigint')}, ${col((r) => r.outOfPlace, 'boolean')},
                ${col((r) => r.validUntil, 'bigint')})
      as n(${TODAY_COLUMNS})
    on conflict (housing_estate_id, person_id) do update set company_id = excluded.company_id, day = excluded.day,
      department_id = excluded.department_id, on_board = excluded.on_board, state = excluded.state,
      shift_day = excluded.shift_day, shift = excluded.shift, start_at = excluded.start_at, end_at = excluded.end_at,
      in_at = excluded.in_at, out_at = excluded.out_at, late_minutes = excluded.late_minutes,
      last_punch_at = excluded.last_punch_at, out_of_place = excluded.out_of_place, valid_until = excluded.valid_until,
      watermark = excluded.watermark
    where checkin_today.watermark <= excluded.watermark`);
}

/** A staff member's stored board row as the board reads it, with whether it must be computed again. */
export interface TodayRead {
  timeZone: string;
  today: string;
  personId: number;
  name: string;
  departmentId: number | null;
  departmentName: string | null;
  /** Missing, of another day, past its validUntil or of another department: compute again. */
  stale: boolean;
  onBoard: boolean | null;
  state: string | null;
  startAt: string | Date | null;
  endAt: string | Date | null;
  inAt: string | Date | null;
  lateMinutes: number | null;
  lastPunchAt: string | Date | null;
}

/**
 * The duty board's read: every staff member of the estate (names and departments as they are now)
 * with their stored row of today, in one statement (the estate's clock in every row), in name order.
 */
export async function readToday(db: DbOrTx, tenant: TenantScope): Promise<TodayRead[]> {
  return queryRows<TodayRead>(
    db,
    sql`select c.time_zone as "timeZone", c.today::text as today, pc.person_id as "personId", p.name,
               pc.department_id as "departmentId", d.name as "departmentName",
               (t.person_id is null or t.day <> c.today or t.valid_until <= now()
                or t.department_id is distinct from pc.department_id) as stale,
               t.on_board as "onBoard", t.state, t.start_at as "startAt", t.end_at as "endAt", t.in_at as "inAt",
               t.late_minutes as "lateMinutes", t.last_punch_at as "lastPunchAt"
        from (select time_zone, (now() at time zone time_zone)::date as today from housing_estate
              where id = ${tenant.housingEstateId}) c
        cross join person_company pc
        join person p on p.id = pc.person_id
        left join department d on d.id = pc.department_id
        left join checkin_today t on t.housing_estate_id = pc.housing_estate_id and t.person_id = pc.person_id
        where pc.company_id = ${tenant.companyId} and pc.housing_estate_id = ${tenant.housingEstateId}
        order by p.name, pc.person_id`,
  );
}

/** Brings an open day's `validUntil` forward to `at` (ms) when that comes sooner (one person's day recomputed). */
export async function bringOpenDayForward(db: DbOrTx, estateId: number, day: string, at: number): Promise<void> {
  await db.execute(sql`update checkin_open_day set valid_until = ${new Date(at).toISOString()}
    where housing_estate_id = ${estateId} and day = ${day}::date
      and (valid_until is null or valid_until > ${new Date(at).toISOString()})`);
}

interface PunchRaw {
  punchId: number;
  personId: number;
  personName: string;
  departmentName: string | null;
  kind: 'in' | 'out';
  at: string | Date;
  inPlace: boolean;
  distanceMetres: number | null;
  accuracyMetres: number | null;
  source: 'app' | 'makeup';
  day: string | null;
  shift: number | null;
}

/**
 * Only the joins a filter needs (a count reads every matching row: each join it skips is
 * thousands of lookups saved): the person for a keyword, their company row for a department.
 */
const filterJoins = (f: { keyword?: string; departmentId?: number }) =>
  sql`${f.keyword ? sql`join person p on p.id = x.person_id` : sql``}
  ${f.departmentId ? sql`join person_company pc on pc.person_id = x.person_id and pc.company_id = x.company_id` : sql``}`;

const staffJoin = sql`join person p on p.id = x.person_id
  left join person_company pc on pc.person_id = x.person_id and pc.company_id = x.company_id
  left join department d on d.id = pc.department_id`;

/** A day range on a date column or, for a time column, days of the estate's time zone. */
function dayBounds(column: SQL, f: { startDate?: string; endDate?: string }, zone?: string): SQL[] {
  const out: SQL[] = [];
  if (zone) {
    if (f.startDate) out.push(sql`${column} >= (${f.startDate}::date::timestamp at time zone ${zone})`);
    if (f.endDate) out.push(sql`${column} < ((${f.endDate}::date + 1)::timestamp at time zone ${zone})`);
  } else {
    if (f.startDate) out.push(sql`${column} >= ${f.startDate}::date`);
    if (f.endDate) out.push(sql`${column} <= ${f.endDate}::date`);
  }
  return out;
}

export interface PunchFilter {
  keyword?: string;
  personId?: number;
  departmentId?: number;
  inPlace?: boolean;
  startDate?: string;
  endDate?: string;
  page: number;
  limit: number;
}

export async function pagePunches(
  db: DbOrTx,
  tenant: TenantScope,
  timeZone: string,
  f: PunchFilter,
): Promise<{ rows: CheckinPunchRow[]; total: number }> {
  const where: SQL[] = [sql`x.company_id = ${tenant.companyId} and x.housing_estate_id = ${tenant.housingEstateId}`];
  if (f.personId) where.push(sql`x.person_id = ${f.personId}`);
  if (f.departmentId) where.push(sql`pc.department_id = ${f.departmentId}`);
  if (f.inPlace !== undefined) where.push(sql`x.in_place = ${f.inPlace}`);
  if (f.keyword) where.push(sql`p.name ilike ${likePattern(f.keyword)}`);
  where.push(...dayBounds(sql`x.at`, f, timeZone));
  const cond = sql.join(where, sql` and `);
  const { rows, total } = await pageRows<PunchRaw>(db, {
    select: (cut) => sql`select x.id as "punchId", x.person_id as "personId", p.name as "personName",
        d.name as "departmentName", x.kind, x.at, x.in_place as "inPlace", x.distance_metres as "distanceMetres",
        x.accuracy_metres as "accuracyMetres", x.source, x.day::text as day, x.shift
      from checkin_punch x ${staffJoin}
      where x.id in (select x.id from checkin_punch x ${filterJoins(f)}
                     where ${cond} order by x.at desc, x.id desc ${cut})
      order by x.at desc, x.id desc`,
    // Without a filter on the person, the counters of the estate's days (checkin_punch_total) answer the total.
    count:
      f.personId || f.departmentId || f.keyword
        ? sql`select count(*)::int as n from checkin_punch x ${filterJoins(f)} where ${cond}`
        : sql`select coalesce(sum(x.punches), 0)::int as n from checkin_punch_total x
              where ${sql.join(
                [
                  sql`x.company_id = ${tenant.companyId} and x.housing_estate_id = ${tenant.housingEstateId}`,
                  ...(f.inPlace !== undefined ? [sql`x.in_place = ${f.inPlace}`] : []),
                  ...dayBounds(sql`x.day`, f),
                ],
                sql` and `,
              )}`,
    page: f.page,
    limit: f.limit,
  });
  return { rows: rows.map((r) => ({ ...r, at: isoOrNull(r.at)! })), total };
}

interface DayRaw {
  personId: number;
  personName: string;
  departmentName: string | null;
  day: string;
  shift: number;
  startAt: string | Date;
  endAt: string | Date;
  inAt: string | Date | null;
  outAt: string | Date | null;
  state: ShiftStateName;
  lateMinutes: number;
  late: boolean;
  earlyMinutes: number;
  leftEarly: boolean;
  pendingMakeupId: number | null;
}

const toDayRow = (r: DayRaw): CheckinDayRow => ({
  ...r,
  startAt: isoOrNull(r.startAt)!,
  endAt: isoOrNull(r.endAt)!,
  inAt: isoOrNull(r.inAt),
  outAt: isoOrNull(r.outAt),
});

const PROBLEM: Record<string, SQL> = {
  late: sql`x.late`,
  leftEarly: sql`x.left_early`,
  missingIn: sql`x.state = 'missingIn'`,
  missingOut: sql`x.state = 'missingOut'`,
  absent: sql`x.state = 'absent'`,
};

/** The checkin_day_total column counting each problem (`any`: a shift with any of them). */
const DAY_TOTAL: Record<keyof typeof PROBLEM | 'any', string> = {
  late: 'late',
  leftEarly: 'left_early',
  missingIn: 'missing_in',
  missingOut: 'missing_out',
  absent: 'absent',
  any: 'problems',
};

const selectDays = (cond: SQL, tail: SQL) => sql`select x.person_id as "personId", p.name as "personName",
    d.name as "departmentName", x.day::text as day, x.shift, x.start_at as "startAt", x.end_at as "endAt",
    x.in_at as "inAt", x.out_at as "outAt", x.state, x.late_minutes as "lateMinutes", x.late,
    x.early_minutes as "earlyMinutes", x.left_early as "leftEarly",
    (select m.id from checkin_makeup m where m.person_id = x.person_id and m.day = x.day and m.shift = x.shift
       and m.status = 1 order by m.id limit 1) as "pendingMakeupId"
  from checkin_day x ${staffJoin} where ${cond} ${tail}`;

export async function pageDays(
  db: DbOrTx,
  tenant: TenantScope,
  f: {
    keyword?: string;
    personId?: number;
    departmentId?: number;
    problem?: keyof typeof PROBLEM;
    startDate?: string;
    endDate?: string;
    page: number;
    limit: number;
  },
): Promise<{ rows: CheckinDayRow[]; total: number }> {
  const where: SQL[] = [sql`x.company_id = ${tenant.companyId} and x.housing_estate_id = ${tenant.housingEstateId}`];
  if (f.personId) where.push(sql`x.person_id = ${f.personId}`);
  if (f.departmentId) where.push(sql`x.department_id = ${f.departmentId}`);
  if (f.keyword) where.push(sql`p.name ilike ${likePattern(f.keyword)}`);
  where.push(f.problem ? PROBLEM[f.problem] : sql`(${sql.join(Object.values(PROBLEM), sql` or `)})`);
  where.push(...dayBounds(sql`x.day`, f));
  const cond = sql.join(where, sql` and `);
  const { rows, total } = await pageRows<DayRaw>(db, {
    // The page's keys first (the order needs the name only), then the rest of its ten rows.
    select: (cut) =>
      selectDays(
        sql`(x.person_id, x.day, x.shift) in (select x.person_id, x.day, x.shift from checkin_day x
              join person p on p.id = x.person_id where ${cond}
              order by x.day desc, p.name, x.person_id, x.shift ${cut})`,
        sql`order by x.day desc, p.name, x.person_id, x.shift`,
      ),
    // Without a filter on the person, the counters of the estate's days (checkin_day_total) answer the total.
    count:
      f.personId || f.keyword
        ? sql`select count(*)::int as n from checkin_day x ${filterJoins({ keyword: f.keyword })} where ${cond}`
        : sql`select coalesce(sum(x.${sql.raw(DAY_TOTAL[f.problem ?? 'any'])}), 0)::int as n from checkin_day_total x
              where ${sql.join(
                [
                  sql`x.company_id = ${tenant.companyId} and x.housing_estate_id = ${tenant.housingEstateId}`,
                  ...(f.departmentId ? [sql`x.department_id = ${f.departmentId}`] : []),
                  ...dayBounds(sql`x.day`, f),
                ],
                sql` and `,
              )}`,
    page: f.page,
    limit: f.limit,
  });
  return { rows: rows.map(toDayRow), total };
}

/** One person's computed shifts of a day. */
export async function daysOf(db: DbOrTx, tenant: TenantScope, personId: number, day: string): Promise<CheckinDayRow[]> {
  const cond = sql`x.company_id = ${tenant.companyId} and x.housing_estate_id = ${tenant.housingEstateId}
    and x.person_id = ${personId} and x.day = ${day}::date`;
  return (await queryRows<DayRaw>(db, selectDays(cond, sql`order by x.shift`))).map(toDayRow);
}

/** The month per person, from the counters of checkin_month_total (one row per person, month and department). */
export async function pageMonth(
  db: DbOrTx,
  tenant: TenantScope,
  f: { month: string; keyword?: string; departmentId?: number; page: number; limit: number },
): Promise<{ rows: CheckinMonthRow[]; total: number }> {
  const where: SQL[] = [
    sql`x.company_id = ${tenant.companyId} and x.housing_estate_id = ${tenant.housingEstateId}`,
    sql`x.month = ${`${f.month}-01`}::date`,
  ];
  if (f.departmentId) where.push(sql`x.department_id = ${f.departmentId}`);
  if (f.keyword) where.push(sql`p.name ilike ${likePattern(f.keyword)}`);
  const cond = sql.join(where, sql` and `);
  // A person whose shifts of the month were all taken off again keeps a row of zeros: not listed.
  // The page's people first (the order needs the name only), then the rest of their rows.
  // (The count joins the names only for a keyword.)
  const people = (select: SQL, tail: SQL, named = true) =>
    sql`${select} from checkin_month_total x ${named || f.keyword ? sql`join person p on p.id = x.person_id` : sql``}
        where ${cond} group by x.person_id having sum(x.shifts) > 0 ${tail}`;
  return pageRows<CheckinMonthRow>(db, {
    select: (cut) => sql`select x.person_id as "personId", min(p.name) as "personName", min(d.name) as "departmentName",
        sum(x.shifts)::int as shifts, sum(x.late)::int as late, sum(x.late_minutes)::int as "lateMinutes",
        sum(x.left_early)::int as "leftEarly", sum(x.missing_in)::int as "missingIn",
        sum(x.missing_out)::int as "missingOut", sum(x.absent)::int as absent
      from checkin_month_total x ${staffJoin}
      where ${cond} and x.person_id in (${people(sql`select x.person_id`, sql`order by min(p.name), x.person_id ${cut}`)})
      group by x.person_id order by min(p.name), x.person_id`,
    count: sql`select count(*)::int as n from (${people(sql`select x.person_id`, sql``, false)}) g`,
    page: f.page,
    limit: f.limit,
  });
}

interface MakeupRaw extends Omit<CheckinMakeupRow, 'at' | 'reviewedAt' | 'createdAt'> {
  at: string | Date;
  reviewedAt: string | Date | null;
  createdAt: string | Date;
}

const selectMakeups = (cond: SQL, tail: SQL) => sql`select x.id as "makeupId", x.person_id as "personId",
    p.name as "personName", x.day::text as day, x.shift, x.kind, x.at, x.reason, x.status,
    r.name as "reviewerName", x.review_note as "reviewNote", x.reviewed_at as "reviewedAt", x.created_at as "createdAt"
  from checkin_makeup x join person p on p.id = x.person_id left join person r on r.id = x.reviewer_person_id
  where ${cond} ${tail}`;

const toMakeupRow = (r: MakeupRaw): CheckinMakeupRow => ({
  ...r,
  at: isoOrNull(r.at)!,
  reviewedAt: isoOrNull(r.reviewedAt),
  createdAt: isoOrNull(r.createdAt)!,
});

export async function pageMakeups(
  db: DbOrTx,
  tenant: TenantScope,
  f: {
    status?: number;
    personId?: number;
    keyword?: string;
    startDate?: string;
    endDate?: string;
    page: number;
    limit: number;
  },
): Promise<{ rows: CheckinMakeupRow[]; total: number }> {
  const where: SQL[] = [sql`x.company_id = ${tenant.companyId} and x.housing_estate_id = ${tenant.housingEstateId}`];
  if (f.status) where.push(sql`x.status = ${f.status}`);
  if (f.personId) where.push(sql`x.person_id = ${f.personId}`);
  if (f.keyword) where.push(sql`p.name ilike ${likePattern(f.keyword)}`);
  where.push(...dayBounds(sql`x.day`, f));
  const cond = sql.join(where, sql` and `);
  // The person's name joins only for the keyword (a request's person is always there: no call
  // deletes a person).
  const from = f.keyword ? sql`checkin_makeup x join person p on p.id = x.person_id` : sql`checkin_makeup x`;
  const { rows, total } = await pageRows<MakeupRaw>(db, {
    // The page's ids first (newest first, read from the estate's index: `nulls last` as the
    // index is, neither column is ever null), then the names of its ten rows.
    select: (cut) =>
      selectMakeups(
        sql`x.id in (select x.id from ${from} where ${cond}
                     order by x.created_at desc nulls last, x.id desc nulls last ${cut})`,
        sql`order by x.created_at desc, x.id desc`,
      ),
    count: sql`select count(*)::int as n from ${from} where ${cond}`,
    page: f.page,
    limit: f.limit,
  });
  return { rows: rows.map(toMakeupRow), total };
}

export async function findMakeup(db: DbOrTx, tenant: TenantScope, id: number): Promise<CheckinMakeupRow | null> {
  const cond = sql`x.company_id = ${tenant.companyId} and x.housing_estate_id = ${tenant.housingEstateId} and x.id = ${id}`;
  const [row] = await queryRows<MakeupRaw>(db, selectMakeups(cond, sql``));
  return row ? toMakeupRow(row) : null;
}

/** Locks a make-up request for its review. */
export async function lockMakeup(db: DbOrTx, tenant: TenantScope, id: number) {
  const [row] = await db
    .select()
    .from(checkinMakeup)
    .where(and(scopedTo(checkinMakeup, tenant), eq(checkinMakeup.id, id)))
    .for('update');
  return row ?? null;
}

export async function hasPendingMakeup(db: DbOrTx, personId: number, day: string, shift: number): Promise<boolean> {
  const rows = await db
    .select({ id: checkinMakeup.id })
    .from(checkinMakeup)
    .where(
      and(
        eq(checkinMakeup.personId, personId),
        eq(checkinMakeup.day, day),
        eq(checkinMakeup.shift, shift),
        eq(checkinMakeup.status, 1),
      ),
    );
  return rows.length > 0;
}

export async function insertMakeup(
  db: DbOrTx,
  tenant: TenantScope,
  v: { personId: number; day: string; shift: number; kind: 'in' | 'out'; at: Date; reason: string },
): Promise<number> {
  const [row] = await db
    .insert(checkinMakeup)
    .values({ ...tenant, ...v })
    .returning({ id: checkinMakeup.id });
  return row.id;
}

export async function reviewMakeup(
  db: DbOrTx,
  id: number,
  v: { status: number; reviewerPersonId: number; reviewNote: string | null },
): Promise<void> {
  await db
    .update(checkinMakeup)
    .set({ ...v, reviewedAt: new Date() })
    .where(eq(checkinMakeup.id, id));
}
