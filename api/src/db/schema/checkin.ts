import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, id, tenantColumns, time } from './columns';

// Staff check-in (issue 32). (The first schema's placeholders checkin_rule and punch_record were
// dropped by the migration drop_checkin_placeholders.) The rule engine (modules/checkin/checkin-rules.ts) reads these rows;
// days are counted in the estate's time zone (housing_estate.time_zone).

/** A shift of a rule: local "HH:mm"; an end not after the start ends the next day. */
export interface ShiftJson {
  start: string;
  end: string;
}

/**
 * One version of a check-in rule, of a department (staff inherit it) or of one person (their
 * own, it wins over the department's). It applies from `effectiveFrom` (a day of the estate) until
 * the next version of the same owner: a change is a new version, never a rewrite of past days.
 */
export const checkinRuleVersion = pgTable(
  'checkin_rule_version',
  {
    id: id(),
    ...tenantColumns(),
    /** Exactly one of departmentId and personId is set. */
    departmentId: integer(),
    personId: integer(),
    effectiveFrom: date({ mode: 'string' }).notNull(),
    /** ISO weekdays, 1 Monday … 7 Sunday. */
    workDays: jsonb().$type<number[]>().notNull(),
    shifts: jsonb().$type<ShiftJson[]>().notNull(),
    lateGraceMinutes: integer().notNull().default(0),
    earlyGraceMinutes: integer().notNull().default(0),
    earlyInMinutes: integer().notNull().default(60),
    lateOutMinutes: integer().notNull().default(120),
    /** The place punches must be made at: a point and a radius in metres. */
    placeName: text(),
    lat: doublePrecision().notNull(),
    lng: doublePrecision().notNull(),
    radiusMetres: integer().notNull(),
    createdBy: integer(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('checkin_rule_version_department_from')
      .on(t.departmentId, t.effectiveFrom)
      .where(sql`person_id is null`),
    uniqueIndex('checkin_rule_version_person_from')
      .on(t.personId, t.effectiveFrom)
      .where(sql`person_id is not null`),
    index().on(t.housingEstateId, t.effectiveFrom),
  ],
);

/** A holiday of the estate: no shift is worked on it. */
export const checkinHoliday = pgTable(
  'checkin_holiday',
  {
    id: id(),
    ...tenantColumns(),
    day: date({ mode: 'string' }).notNull(),
    name: text().notNull(),
  },
  (t) => [uniqueIndex().on(t.housingEstateId, t.day)],
);

/**
 * A punch from the staff app, at the server's time. `inPlace` false: refused (outside the rule's
 * radius), kept so the board and the records show the attempt; it counts for no day.
 * `source` 'makeup': written by an approved make-up request. The idempotency key makes a retried
 * request one punch.
 */
export const checkinPunch = pgTable(
  'checkin_punch',
  {
    id: id(),
    ...tenantColumns(),
    personId: integer().notNull(),
    kind: text().$type<'in' | 'out'>().notNull(),
    at: time().notNull(),
    lat: doublePrecision(),
    lng: doublePrecision(),
    accuracyMetres: doublePrecision(),
    deviceId: text(),
    idempotencyKey: text(),
    distanceMetres: integer(),
    inPlace: boolean().notNull(),
    source: text().$type<'app' | 'makeup'>().notNull().default('app'),
    /** The day (of the estate) and shift it counted for; null when it counted for none. */
    day: date({ mode: 'string' }),
    shift: smallint(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex().on(t.personId, t.idempotencyKey),
    // The records list in its order (at desc, id desc: this index read backwards); person,
    // in-place and kind after the unique id order nothing but let a filtered count and the
    // board's read of the last two days (every column it needs) skip the table.
    index('checkin_punch_list').on(t.housingEstateId, t.companyId, t.at, t.id, t.personId, t.inPlace, t.kind),
    index().on(t.personId, t.at),
  ],
);

/**
 * One shift of one person's working day as the rule engine computed it (state: ShiftState of the
 * engine). Recomputed by a punch, an approved make-up request, and for open days when read.
 */
export const checkinDay = pgTable(
  'checkin_day',
  {
    ...tenantColumns(),
    personId: integer().notNull(),
    day: date({ mode: 'string' }).notNull(),
    shift: smallint().notNull(),
    departmentId: integer(),
    ruleId: integer().notNull(),
    startAt: time().notNull(),
    endAt: time().notNull(),
    inAt: time(),
    outAt: time(),
    state: text().notNull(),
    lateMinutes: integer().notNull(),
    late: boolean().notNull(),
    earlyMinutes: integer().notNull(),
    leftEarly: boolean().notNull(),
  },
  (t) => [
    primaryKey({ name: 'checkin_day_pk', columns: [t.personId, t.day, t.shift] }),
    index().on(t.housingEstateId, t.day),
    // The missing-card list: only the shifts with a problem, newest day first.
    index('checkin_day_problems')
      .on(t.housingEstateId, t.day)
      .where(sql`late or left_early or state in ('missingIn', 'missingOut', 'absent')`),
  ],
);

// Counters the lists' totals read instead of counting big joins (issue 32 budgets). Kept by
// statement triggers on checkin_punch and checkin_day (migration checkin_totals_triggers), so every
// writer (the app, a seed, a benchmark's SQL) keeps them right in its own transaction.

/** Punches of the estate per day of its time zone, accepted or refused (the records list's total). */
export const checkinPunchTotal = pgTable(
  'checkin_punch_total',
  {
    ...tenantColumns(),
    day: date({ mode: 'string' }).notNull(),
    inPlace: boolean().notNull(),
    punches: integer().notNull(),
  },
  (t) => [primaryKey({ name: 'checkin_punch_total_pk', columns: [t.housingEstateId, t.day, t.inPlace] })],
);

/** Computed shifts per day and department (0: none) and their problems (the missing-card list's total). */
export const checkinDayTotal = pgTable(
  'checkin_day_total',
  {
    ...tenantColumns(),
    day: date({ mode: 'string' }).notNull(),
    departmentId: integer().notNull(),
    shifts: integer().notNull(),
    late: integer().notNull(),
    leftEarly: integer().notNull(),
    missingIn: integer().notNull(),
    missingOut: integer().notNull(),
    absent: integer().notNull(),
    problems: integer().notNull(),
  },
  (t) => [primaryKey({ name: 'checkin_day_total_pk', columns: [t.housingEstateId, t.day, t.departmentId] })],
);

/** Computed shifts per person, month (its first day) and department (0: none): the month list's rows. */
export const checkinMonthTotal = pgTable(
  'checkin_month_total',
  {
    ...tenantColumns(),
    month: date({ mode: 'string' }).notNull(),
    personId: integer().notNull(),
    departmentId: integer().notNull(),
    shifts: integer().notNull(),
    late: integer().notNull(),
    lateMinutes: integer().notNull(),
    leftEarly: integer().notNull(),
    missingIn: integer().notNull(),
    missingOut: integer().notNull(),
    absent: integer().notNull(),
  },
  (t) => [
    primaryKey({
      name: 'checkin_month_total_pk',
      columns: [t.housingEstateId, t.month, t.personId, t.departmentId],
    }),
  ],
);

/** A day the estate's check-in days were computed for, closed (past): not computed again. */
export const checkinClosedDay = pgTable(
  'checkin_closed_day',
  {
    housingEstateId: integer().notNull(),
    day: date({ mode: 'string' }).notNull(),
  },
  (t) => [primaryKey({ name: 'checkin_closed_day_pk', columns: [t.housingEstateId, t.day] })],
);

/**
 * An open day (yesterday or today: not closed yet) whose shifts of every staff member were
 * computed and stored, and until when that answer holds without a new computation: `validUntil`
 * is the first instant a shift's state changes by time alone (a start, an end, the end of a
 * punch-out window; null: none before the day closes), and `stamp` the fingerprint of the staff
 * (person and department), rule versions and holidays it was computed from (a change of any of
 * them is a new stamp: computed again). A punch or an approved make-up recomputes its person's day
 * itself and brings `validUntil` forward when that person's next change comes sooner.
 */
export const checkinOpenDay = pgTable(
  'checkin_open_day',
  {
    housingEstateId: integer().notNull(),
    day: date({ mode: 'string' }).notNull(),
    stamp: text().notNull(),
    validUntil: time(),
    computedAt: time().notNull(),
  },
  (t) => [primaryKey({ name: 'checkin_open_day_pk', columns: [t.housingEstateId, t.day] })],
);

/**
 * A staff member's request to make up a missing punch, with a reason; status 1 pending,
 * 2 approved (a punch of source 'makeup' is written and the day recomputed), 3 refused.
 */
export const checkinMakeup = pgTable(
  'checkin_makeup',
  {
    id: id(),
    ...tenantColumns(),
    personId: integer().notNull(),
    day: date({ mode: 'string' }).notNull(),
    shift: smallint().notNull(),
    kind: text().$type<'in' | 'out'>().notNull(),
    /** The time the person says they came or left. */
    at: time().notNull(),
    reason: text().notNull(),
    status: smallint().notNull().default(1),
    reviewerPersonId: integer(),
    reviewNote: text(),
    reviewedAt: time(),
    createdAt: createdAt(),
  },
  (t) => [
    index().on(t.housingEstateId, t.status, t.createdAt.desc()),
    index().on(t.personId, t.day),
    // The make-up list without a status (newest first): its page read from the index's first entries.
    index().on(t.housingEstateId, t.createdAt.desc(), t.id.desc()),
  ],
);

/**
 * The duty board's row of each staff member for the estate's today (issue 32 budgets: the board's
 * first load is one indexed read of these). Written in the transaction of each punch (accepted or
 * refused), approved make-up and rule or holiday change of today, and by a board read for the rows
 * it finds stale: of another day (the estate's midnight passed), past `validUntil` (the first
 * instant a shift of the row changes state by time alone), of another department than the
 * person's now, or missing (a new staff member). A punch deleted or changed by hand deletes its
 * person's row (trigger of migration checkin_today_triggers). `watermark` is the estate's newest
 * punch id the row was computed with: an older computation never overwrites a newer one.
 */
export const checkinToday = pgTable(
  'checkin_today',
  {
    ...tenantColumns(),
    personId: integer().notNull(),
    /** The estate's day the row was computed for. */
    day: date({ mode: 'string' }).notNull(),
    departmentId: integer(),
    /** False: no rule today and no shift running (not on the board). */
    onBoard: boolean().notNull(),
    /** BoardState of shared/src/api/checkin.ts. */
    state: text().notNull(),
    /** The shift that decides the state: the day it counts on and its index (null: none). */
    shiftDay: date({ mode: 'string' }),
    shift: smallint(),
    startAt: time(),
    endAt: time(),
    inAt: time(),
    outAt: time(),
    lateMinutes: integer().notNull(),
    /** The last punch since yesterday began, accepted or refused (refused: out of place). */
    lastPunchAt: time(),
    outOfPlace: boolean().notNull(),
    validUntil: time(),
    watermark: integer().notNull(),
  },
  (t) => [primaryKey({ name: 'checkin_today_pk', columns: [t.housingEstateId, t.personId] })],
);
