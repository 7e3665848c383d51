import { z } from 'zod';
import { DEFAULT_LIMIT, DEFAULT_PAGE, MAX_LIMIT } from '../constants';

/** Largest value of an int4 id column; larger ids are refused with 400 instead of reaching the database. */
export const MAX_ID = 2_147_483_647;

/** A positive integer id, from JSON numbers or path/query strings. */
export const IdSchema = z.coerce.number().int().min(1).max(MAX_ID);
/** `{ id }` path parameters. */
export const IdParamsSchema = z.object({ id: IdSchema });
/** A list of ids for batch calls (1 to 1000). */
export const IdListSchema = z.array(IdSchema).min(1).max(1000);

/** page/limit of a list body; missing means page 1, limit 10 (SPEC §9). */
export const PageBodySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_PAGE),
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
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
