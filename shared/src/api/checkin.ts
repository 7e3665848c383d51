import { z } from 'zod';
import { isDay } from '../estate-setup';
import { IdSchema, intSchema, KeywordSchema, listPageSchema, PageBodySchema } from './common';
import { defineEndpoints } from './endpoint';

// Staff check-in (issue 32): rules and shifts, punches from the staff app, missing-card records
// with make-up requests, the live duty board. SPEC shows no call of this area; these are designed
// in the style of §7. Permission codes (README "Staff check-in"): checkin:view reads everything,
// checkin:rules changes rules and holidays, checkin:approve reviews make-up requests,
// checkin:punch lets a staff member punch and ask for a make-up for themselves only (a guard's
// role has checkin:punch alone). Days are days of the estate's time zone (yyyy-MM-dd).

const day = z.string().trim().refine(isDay, { message: 'checkin.errors.day' });
const clock = z
  .string()
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'checkin.errors.clock' });
const month = z
  .string()
  .trim()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: 'checkin.errors.month' });
const minutes = intSchema(0, 720);

export const PUNCH_KINDS = ['in', 'out'] as const;
export type PunchKind = (typeof PUNCH_KINDS)[number];

/** What a shift of a day came to (the rule engine's states, api/src/modules/checkin/checkin-rules.ts). */
export const SHIFT_STATES = ['upcoming', 'notYetIn', 'onDuty', 'done', 'missingIn', 'missingOut', 'absent'] as const;
export type ShiftStateName = (typeof SHIFT_STATES)[number];

/** The problems the missing-card records filter on. */
export const DAY_PROBLEMS = ['late', 'leftEarly', 'missingIn', 'missingOut', 'absent'] as const;

export const ShiftSchema = z.object({ start: clock, end: clock });

const clockMinutes = (v: string) => Number(v.slice(0, 2)) * 60 + Number(v.slice(3, 5));

/**
 * Whether two shifts of a day share a minute (a punch then could not tell which it counts for):
 * each as minutes of a two-day span, a shift whose end is not after its start ending the next day,
 * compared also one day shifted (tonight's night shift against tomorrow's early one).
 */
export function shiftsOverlap(shifts: readonly { start: string; end: string }[]): boolean {
  const spans = shifts.map((s) => {
    const start = clockMinutes(s.start);
    let end = clockMinutes(s.end);
    if (end <= start) end += 24 * 60;
    return [start, end] as const;
  });
  for (let i = 0; i < spans.length; i++)
    for (let j = i + 1; j < spans.length; j++)
      for (const shift of [-24 * 60, 0, 24 * 60]) {
        const [a0, a1] = spans[i];
        const [b0, b1] = [spans[j][0] + shift, spans[j][1] + shift];
        if (a0 < b1 && b0 < a1) return true;
      }
  return false;
}

/** A rule version as staff see it. Exactly one of departmentId and personId is set. */
export const CheckinRuleRowSchema = z.object({
  ruleId: z.number(),
  departmentId: z.number().nullable(),
  departmentName: z.string().nullable(),
  personId: z.number().nullable(),
  personName: z.string().nullable(),
  effectiveFrom: z.string(),
  workDays: z.array(z.number()),
  shifts: z.array(z.object({ start: z.string(), end: z.string() })),
  lateGraceMinutes: z.number(),
  earlyGraceMinutes: z.number(),
  earlyInMinutes: z.number(),
  lateOutMinutes: z.number(),
  placeName: z.string().nullable(),
  lat: z.number(),
  lng: z.number(),
  radiusMetres: z.number(),
  /** The version in force today for its owner (later ones are scheduled, earlier ones history). */
  current: z.boolean(),
});
export type CheckinRuleRow = z.infer<typeof CheckinRuleRowSchema>;

export const CheckinRuleListSchema = z.object({
  departmentId: IdSchema.optional(),
  personId: IdSchema.optional(),
});

/**
 * A new version of a department's or a person's rule, applying from `effectiveFrom` (today or a
 * later day of the estate: closed days are never rewritten). A version of the same owner and day
 * is replaced.
 */
export const CheckinRuleSaveSchema = z
  .object({
    departmentId: IdSchema.optional(),
    personId: IdSchema.optional(),
    effectiveFrom: day,
    workDays: z
      .array(intSchema(1, 7))
      .min(1, { message: 'checkin.errors.workDays' })
      .max(7)
      .refine((d) => new Set(d).size === d.length, { message: 'checkin.errors.workDays' }),
    /** One to four shifts a day, none sharing a minute with another. */
    shifts: z.array(ShiftSchema).min(1, { message: 'checkin.errors.shifts' }).max(4),
    lateGraceMinutes: minutes.default(0),
    earlyGraceMinutes: minutes.default(0),
    earlyInMinutes: minutes.default(60),
    lateOutMinutes: minutes.default(120),
    placeName: z.string().trim().max(100).optional(),
    lat: z.number().min(-90).max(90),
    lng: z.number().min(-180).max(180),
    radiusMetres: intSchema(10, 10_000),
  })
  .refine((r) => (r.departmentId === undefined) !== (r.personId === undefined), {
    message: 'checkin.errors.owner',
    path: ['departmentId'],
  })
  .refine((r) => !shiftsOverlap(r.shifts), { message: 'checkin.errors.shiftsOverlap', path: ['shifts'] });
export type CheckinRuleSave = z.infer<typeof CheckinRuleSaveSchema>;

export const CheckinHolidaySchema = z.object({ day: z.string(), name: z.string() });
export const CheckinHolidaySaveSchema = z.object({ day, name: z.string().trim().min(1).max(60) });
export const CheckinHolidayDeleteSchema = z.object({ day });

/** A punch in the records. `inPlace` false: refused, outside the radius (it counts for no day). */
export const CheckinPunchRowSchema = z.object({
  punchId: z.number(),
  personId: z.number(),
  personName: z.string(),
  departmentName: z.string().nullable(),
  kind: z.enum(PUNCH_KINDS),
  at: z.string(),
  inPlace: z.boolean(),
  distanceMetres: z.number().nullable(),
  accuracyMetres: z.number().nullable(),
  source: z.enum(['app', 'makeup']),
  day: z.string().nullable(),
  shift: z.number().nullable(),
});
export type CheckinPunchRow = z.infer<typeof CheckinPunchRowSchema>;

const dayRange = {
  /** First and last day (yyyy-MM-dd, the estate's days, both included). */
  startDate: day.optional(),
  endDate: day.optional(),
};
const rangeRule = <T extends { startDate?: string; endDate?: string }>(r: T) =>
  !r.startDate || !r.endDate || r.startDate <= r.endDate;
const rangeMessage = { message: 'checkin.errors.range', path: ['endDate'] };

export const CheckinPunchPageSchema = PageBodySchema.extend({
  keyword: KeywordSchema,
  personId: IdSchema.optional(),
  departmentId: IdSchema.optional(),
  inPlace: z.boolean().optional(),
  ...dayRange,
}).refine(rangeRule, rangeMessage);

/** One shift of one person's day, as computed. */
export const CheckinDayRowSchema = z.object({
  personId: z.number(),
  personName: z.string(),
  departmentName: z.string().nullable(),
  day: z.string(),
  shift: z.number(),
  startAt: z.string(),
  endAt: z.string(),
  inAt: z.string().nullable(),
  outAt: z.string().nullable(),
  state: z.enum(SHIFT_STATES),
  lateMinutes: z.number(),
  late: z.boolean(),
  earlyMinutes: z.number(),
  leftEarly: z.boolean(),
  /** The make-up request of this shift waiting for review, if any. */
  pendingMakeupId: z.number().nullable(),
});
export type CheckinDayRow = z.infer<typeof CheckinDayRowSchema>;

export const CheckinDayPageSchema = PageBodySchema.extend({
  keyword: KeywordSchema,
  personId: IdSchema.optional(),
  departmentId: IdSchema.optional(),
  /** One problem; none = every shift with any problem. */
  problem: z.enum(DAY_PROBLEMS).optional(),
  ...dayRange,
}).refine(rangeRule, rangeMessage);

/** A person's month: shifts worked and each problem's count. */
export const CheckinMonthRowSchema = z.object({
  personId: z.number(),
  personName: z.string(),
  departmentName: z.string().nullable(),
  shifts: z.number(),
  late: z.number(),
  lateMinutes: z.number(),
  leftEarly: z.number(),
  missingIn: z.number(),
  missingOut: z.number(),
  absent: z.number(),
});
export type CheckinMonthRow = z.infer<typeof CheckinMonthRowSchema>;

export const CheckinMonthPageSchema = PageBodySchema.extend({
  month,
  keyword: KeywordSchema,
  departmentId: IdSchema.optional(),
});

export const MAKEUP_STATUSES = { pending: 1, approved: 2, refused: 3 } as const;

export const CheckinMakeupRowSchema = z.object({
  makeupId: z.number(),
  personId: z.number(),
  personName: z.string(),
  day: z.string(),
  shift: z.number(),
  kind: z.enum(PUNCH_KINDS),
  at: z.string(),
  reason: z.string(),
  status: z.number(),
  reviewerName: z.string().nullable(),
  reviewNote: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type CheckinMakeupRow = z.infer<typeof CheckinMakeupRowSchema>;

/**
 * The make-up requests' filters: status, person, part of the person's name (`keyword`), and the
 * days of the shifts asked for (`startDate`–`endDate`, both included). The date range follows
 * SPEC §5: an end needs a start, a start needs an end, and the end is not before the start.
 */
export const CheckinMakeupPageSchema = PageBodySchema.extend({
  status: intSchema(1, 3).optional(),
  personId: IdSchema.optional(),
  keyword: KeywordSchema,
  ...dayRange,
})
  .refine((r) => !r.endDate || !!r.startDate, { message: 'validation.required', path: ['startDate'] })
  .refine((r) => !r.startDate || !!r.endDate, { message: 'validation.required', path: ['endDate'] })
  .refine(rangeRule, rangeMessage);

export const CheckinMakeupReviewSchema = z.object({
  makeupId: IdSchema,
  approve: z.boolean(),
  note: z.string().trim().max(200).optional(),
});

/** Where a person stands on the board today. */
export const BOARD_STATES = ['onDuty', 'late', 'notYetIn', 'absent', 'leftEarly', 'outOfPlace', 'offDuty'] as const;
export type BoardState = (typeof BOARD_STATES)[number];

export const CheckinBoardRowSchema = z.object({
  personId: z.number(),
  personName: z.string(),
  departmentName: z.string().nullable(),
  state: z.enum(BOARD_STATES),
  /** The shift that decides the state: its start and end (ISO), null on a day off. */
  startAt: z.string().nullable(),
  endAt: z.string().nullable(),
  inAt: z.string().nullable(),
  lateMinutes: z.number(),
  /** The last punch (accepted or refused) of today. */
  lastPunchAt: z.string().nullable(),
});
export type CheckinBoardRow = z.infer<typeof CheckinBoardRowSchema>;

export const CheckinBoardSchema = z.object({
  day: z.string(),
  timeZone: z.string(),
  rows: z.array(CheckinBoardRowSchema),
  totals: z.object(Object.fromEntries(BOARD_STATES.map((s) => [s, z.number()])) as Record<BoardState, z.ZodNumber>),
});
export type CheckinBoard = z.infer<typeof CheckinBoardSchema>;

/** A punch from the staff app: where the phone is, how sure it is, which device, a key per attempt. */
export const PunchSchema = z.object({
  kind: z.enum(PUNCH_KINDS),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  accuracyMetres: z.number().min(0).max(100_000).optional(),
  deviceId: z.string().trim().min(1).max(100),
  /** The same key for a retried request: the punch is stored once and answered again. */
  idempotencyKey: z.string().trim().min(8).max(100),
});

export const PunchAnswerSchema = z.object({
  punchId: z.number(),
  kind: z.enum(PUNCH_KINDS),
  /** The server's time of the punch (ISO). */
  at: z.string(),
  distanceMetres: z.number(),
  /** The day and shift (index and times) it counted for; null when it counted for none. */
  day: z.string().nullable(),
  shift: z.number().nullable(),
  shiftStart: z.string().nullable(),
  shiftEnd: z.string().nullable(),
  /** Minutes late of the shift's punch-in so far (0 on time). */
  lateMinutes: z.number(),
});
export type PunchAnswer = z.infer<typeof PunchAnswerSchema>;

export const MakeupRequestSchema = z.object({
  day,
  shift: intSchema(0, 3),
  kind: z.enum(PUNCH_KINDS),
  /** The local time (the estate's) the person came or left; for a shift past midnight, the time on the next day. */
  time: clock,
  reason: z.string().trim().min(1).max(200),
});

/** The estate's departments and staff (the enterprise-management tables), for the screens' pickers. */
export const CheckinStaffSchema = z.object({
  departments: z.array(z.object({ departmentId: z.number(), name: z.string() })),
  staff: z.array(z.object({ personId: z.number(), name: z.string(), departmentId: z.number().nullable() })),
});

const FileSchema = z.string().meta({ format: 'binary' });
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const checkinEndpoints = /* @__PURE__ */ defineEndpoints({
  'GET /base/checkin/staff': {
    permission: 'checkin:view',
    summary: 'The estate’s departments (in their order) and staff members, for the filters and the rule owners.',
    response: CheckinStaffSchema,
  },
  'POST /base/checkin/rule/list': {
    permission: 'checkin:view',
    summary:
      'Every version of the check-in rules of the estate (departments, then people), oldest first per owner; `current` marks the one in force today. Filters: departmentId, personId.',
    body: CheckinRuleListSchema,
    response: z.array(CheckinRuleRowSchema),
  },
  'POST /base/checkin/rule/save': {
    permission: 'checkin:rules',
    summary:
      'A new version of a department’s rule (departmentId) or of one person’s own (personId), from effectiveFrom on: today or later in the estate’s days (400 for a past day: closed days are never rewritten). workDays are ISO weekdays (1 Monday); a shift whose end is not after its start ends the next day and counts on the day it starts; one to four shifts, none sharing a minute with another (400 otherwise). earlyInMinutes: how long before a shift’s start a punch-in counts; lateOutMinutes: how long after its end a punch-out counts. A person’s own rule wins over their department’s. A version of the same owner and day is replaced.',
    body: CheckinRuleSaveSchema,
    response: CheckinRuleRowSchema,
    successMessage: 'checkin.ruleSaved',
  },
  'POST /base/checkin/rule/delete': {
    permission: 'checkin:rules',
    summary: 'Deletes a scheduled rule version (one not yet in force; 400 for one in force or past).',
    body: z.object({ ruleId: IdSchema }),
    response: z.null(),
  },
  'GET /base/checkin/holiday/list': {
    permission: 'checkin:view',
    summary: 'The estate’s holidays, in order.',
    response: z.array(CheckinHolidaySchema),
  },
  'POST /base/checkin/holiday/save': {
    permission: 'checkin:rules',
    summary: 'Adds or renames a holiday (today or later: 400 for a past day).',
    body: CheckinHolidaySaveSchema,
    response: z.null(),
  },
  'POST /base/checkin/holiday/delete': {
    permission: 'checkin:rules',
    summary: 'Removes a holiday (today or later).',
    body: CheckinHolidayDeleteSchema,
    response: z.null(),
  },
  'POST /base/checkin/punch/page': {
    permission: 'checkin:view',
    summary:
      'The punches of the estate’s staff, newest first, paged. Filters: keyword (name), personId, departmentId, inPlace (false: refused punches outside the radius), startDate/endDate (days of the estate).',
    body: CheckinPunchPageSchema,
    response: listPageSchema(CheckinPunchRowSchema),
  },
  'POST /base/checkin/day/page': {
    permission: 'checkin:view',
    summary:
      'Missing-card records: the shifts of working days (up to today) with a problem (late, leftEarly, missingIn, missingOut, absent), newest day first, paged. Filters: problem, keyword, personId, departmentId, startDate/endDate.',
    body: CheckinDayPageSchema,
    response: listPageSchema(CheckinDayRowSchema),
  },
  'POST /base/checkin/month/page': {
    permission: 'checkin:view',
    summary: 'Per person, a month’s (yyyy-MM) shifts and counts of late, left early, missing punches and absences.',
    body: CheckinMonthPageSchema,
    response: listPageSchema(CheckinMonthRowSchema),
  },
  'POST /base/checkin/punch/export': {
    permission: 'checkin:view',
    summary:
      'The punch records with the list’s filters (page and limit ignored) as an Excel file, streamed (X-Total-Rows says how many rows follow).',
    body: CheckinPunchPageSchema,
    answer: 'raw',
    answerContentType: XLSX,
    response: FileSchema,
  },
  'POST /base/checkin/month/export': {
    permission: 'checkin:view',
    summary:
      'The month’s totals per person (late, left early, missing punches, absences) as an Excel file, streamed (X-Total-Rows says how many rows follow).',
    body: CheckinMonthPageSchema,
    answer: 'raw',
    answerContentType: XLSX,
    response: FileSchema,
  },
  'POST /base/checkin/makeup/page': {
    permission: 'checkin:view',
    summary:
      "Make-up requests, newest first. Filters: status (1 pending, 2 approved, 3 refused), personId, keyword (part of the person's name), startDate and endDate (yyyy-MM-dd, days of the estate, both included: the day of the shift asked for; give both or neither, the end not before the start).",
    body: CheckinMakeupPageSchema,
    response: listPageSchema(CheckinMakeupRowSchema),
  },
  'POST /base/checkin/makeup/review': {
    permission: 'checkin:approve',
    summary:
      'Approves (a punch of source makeup is written at the time asked and the day recomputed) or refuses a pending make-up request (409 when already reviewed).',
    body: CheckinMakeupReviewSchema,
    response: CheckinMakeupRowSchema,
  },
  'GET /base/checkin/board': {
    permission: 'checkin:view',
    summary:
      'The duty board of today (the estate’s day): each staff member with a rule, on duty, late (by how much), not yet in, absent, left early, out of place (last punch refused) or off duty, and the totals. It changes live through the `checkin` topic.',
    response: CheckinBoardSchema,
  },
  'POST /app/checkin/punch': {
    permission: 'checkin:punch',
    summary:
      'The staff app: the caller punches in or out, for themselves only, at the server’s time. Refused (400, the message names the distance) outside the rule’s radius; a retried request with the same idempotencyKey is stored once and answered the same. Answers the shift it counted for.',
    body: PunchSchema,
    response: PunchAnswerSchema,
  },
  'GET /app/checkin/today': {
    permission: 'checkin:punch',
    summary: 'The staff app: the caller’s shifts of today as they stand.',
    response: z.array(CheckinDayRowSchema),
  },
  'POST /app/checkin/makeup': {
    permission: 'checkin:punch',
    summary:
      'The staff app: the caller asks to make up a missing punch of one of their past or current shifts, with a reason (409 when one is already pending for it).',
    body: MakeupRequestSchema,
    response: CheckinMakeupRowSchema,
  },
});
