import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { TenantScope } from '../http/caller';
import type { DbOrTx } from './database-types';

/**
 * The general SQL helpers every repository uses, in one place: raw rows, the tenant filter,
 * keyword patterns, paging and day ranges in the estate's time zone.
 */

/** Rows of a raw SQL query, on either driver. */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** `company_id = ? and housing_estate_id = ?` for any tenant-owned table. */
export function scopedTo(table: { companyId: PgColumn; housingEstateId: PgColumn }, tenant: TenantScope): SQL {
  return and(eq(table.companyId, tenant.companyId), eq(table.housingEstateId, tenant.housingEstateId)) as SQL;
}

/** An `ilike` pattern that finds the keyword anywhere; `%`, `_` and `\` in it match themselves. */
export function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The row offset of a 1-based page. */
export function offsetOf(page: number, limit: number): number {
  return (page - 1) * limit;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Conditions on a time column for a `startTime` / `endTime` filter. A `yyyy-MM-dd` is a whole
 * day of the estate's time zone (housing_estate.time_zone, e.g. Asia/Hong_Kong: 2026-11-07 runs
 * from 2026-11-06 16:00 UTC), whatever zone the staff's browser is in; the zone is read once in
 * the query, so the bounds stay constants for an index on the column. An ISO date-time is an
 * exact instant.
 */
export function dayRange(column: SQL, housingEstateId: number | SQL, startTime?: string, endTime?: string): SQL[] {
  const zone = sql`(select he.time_zone from housing_estate he where he.id = ${housingEstateId})`;
  const dayStart = (day: string, plusDays: 0 | 1) =>
    sql`((${day}::date + ${sql.raw(String(plusDays))})::timestamp at time zone ${zone})`;
  const parts: SQL[] = [];
  if (startTime)
    parts.push(
      DAY.test(startTime)
        ? sql`${column} >= ${dayStart(startTime, 0)}`
        : sql`${column} >= ${new Date(startTime).toISOString()}`,
    );
  if (endTime)
    parts.push(
      DAY.test(endTime)
        ? sql`${column} < ${dayStart(endTime, 1)}`
        : sql`${column} <= ${new Date(endTime).toISOString()}`,
    );
  return parts;
}

/** PostgreSQL's text form of a UTC timestamptz: `2026-11-26 22:10:00.123456+00`. */
const PG_UTC_TIME = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;

/**
 * A timestamp column's value as an ISO string (null stays null). PostgreSQL's UTC text form is
 * rewritten in place (milliseconds truncated, as Date does): V8 parses that form with its slow
 * legacy parser, about 6 µs a value, which was most of the CPU of a 1,000-row list.
 */
export function isoOrNull(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') {
    const m = PG_UTC_TIME.exec(v);
    if (m) return `${m[1]}T${m[2]}.${m[3] === undefined ? '000' : m[3].slice(0, 3).padEnd(3, '0')}Z`;
  }
  return new Date(v as string | Date).toISOString();
}

/**
 * One page of a list and its total, the two queries run together. `select` gets the page's cut
 * (`limit … offset …`) to put where the query sorts and cuts (at its end, or in a subquery that
 * cuts before joining); `count` answers one row `{ n }` (a `count(*)`, or a sum of counters), or
 * is the total itself when the caller already counted.
 */
export async function pageRows<T>(
  db: DbOrTx,
  q: { select: (cut: SQL) => SQL; count: SQL | number; page: number; limit: number },
): Promise<{ rows: T[]; total: number }> {
  const cut = sql`limit ${q.limit} offset ${offsetOf(q.page, q.limit)}`;
  const [rows, total] = await Promise.all([
    queryRows<T>(db, q.select(cut)),
    typeof q.count === 'number' ? q.count : queryRows<{ n: number }>(db, q.count).then((r) => Number(r[0]?.n ?? 0)),
  ]);
  return { rows, total };
}

/**
 * Whether `err` (or an error it wraps: drizzle's query error around the driver's) is PostgreSQL's
 * unique violation (23505) of the index or constraint `name`, on either engine.
 */
export function isUniqueViolation(err: unknown, name: string): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return constraint === name;
  }
  return false;
}
