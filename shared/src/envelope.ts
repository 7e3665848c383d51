import { z } from 'zod';
import { intSchema } from './api/common';
import { DEFAULT_LIMIT, DEFAULT_PAGE, MAX_LIMIT } from './constants';

/** Every JSON answer of the api (DESIGN §2). `code` 200 is success. */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

/** One page of a list (DESIGN §2). */
export interface ListPage<T> {
  list: T[];
  total: number;
  page: number;
  limit: number;
  totalPage: number;
}

/** Page and limit of a list request; decimal-digit strings from forms are read as numbers. */
export const PageQuerySchema = z.object({
  page: intSchema(1, 1_000_000).default(DEFAULT_PAGE),
  limit: intSchema(1, MAX_LIMIT).default(DEFAULT_LIMIT),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

export function listPage<T>(list: T[], total: number, { page, limit }: PageQuery): ListPage<T> {
  return { list, total, page, limit, totalPage: Math.ceil(total / limit) };
}

export function ok<T>(data: T, msg = 'success'): Envelope<T> {
  return { code: 200, msg, data };
}
