import { z } from 'zod';
import { DEFAULT_LIMIT, DEFAULT_PAGE, MAX_LIMIT } from '../constants';

/** Largest value of an int4 id column; larger ids are refused with 400 instead of reaching the database. */
export const MAX_ID = 2_147_483_647;

/** The message of every "not a whole number" issue (the api turns it into validation.wholeNumber). */
export const WHOLE_NUMBER_MESSAGE = 'expected a whole number';
const DECIMAL_DIGITS = /^-?\d{1,15}$/;

/**
 * A whole number between min and max, from a JSON number or a string of decimal digits ("12" from
 * a path, a query or a form). Every number field of a request uses it: unlike z.coerce it
 * refuses true, null, [], [5], "", " 1", "1e3" and "0x10" instead of turning them into numbers.
 */
export function intSchema(min: number, max: number) {
  return z
    .union([z.number(), z.string().regex(DECIMAL_DIGITS, { error: WHOLE_NUMBER_MESSAGE })], {
      error: WHOLE_NUMBER_MESSAGE,
    })
    .transform(Number)
    .pipe(z.number().int({ error: WHOLE_NUMBER_MESSAGE }).min(min).max(max));
}

/** A positive integer id, from JSON numbers or path/query strings. */
export const IdSchema = intSchema(1, MAX_ID);
/** `{ id }` path parameters. */
export const IdParamsSchema = z.object({ id: IdSchema });
/** A list of ids for batch calls (1 to 1000). */
export const IdListSchema = z.array(IdSchema).min(1).max(1000);

/** page/limit of a list body; missing means page 1, limit 10 (SPEC §9). */
export const PageBodySchema = z.object({
  page: intSchema(1, 1_000_000).default(DEFAULT_PAGE),
  limit: intSchema(1, MAX_LIMIT).default(DEFAULT_LIMIT),
});

/** A list page answer `{ list, total, page, limit, totalPage }` of rows of `row`. */
export function listPageSchema<T extends z.ZodType>(row: T) {
  return z.object({
    list: z.array(row),
    total: z.number(),
    page: z.number(),
    limit: z.number(),
    totalPage: z.number(),
  });
}

/** Optional free-text filter, trimmed, at most 100 characters. */
export const KeywordSchema = z.string().trim().max(100).optional();
export const PersonImageSchema = z.object({ url: z.string() });

/**
 * A `startTime` / `endTime` filter: `yyyy-MM-dd` (a whole day of the estate's time zone) or an
 * ISO date-time (that instant). The api reads it with `dayRange` (api/src/db/sql.ts).
 */
export const DayOrTimeSchema = z
  .string()
  .trim()
  .max(40)
  .refine((v) => !Number.isNaN(Date.parse(v)), { message: 'not a date' });
