import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from './database-types';

/**
 * Prepared raw queries for the hot paths (issue 34). The SQL is built and turned into text ONCE,
 * with named placeholders for the values; each call only fills the values in. On PostgreSQL the
 * statement is also prepared by name on each pooled connection (parsed and planned once there,
 * then only bound and executed). The answer is the same rows `queryRows` gives for the same SQL:
 * the query goes through drizzle's own prepared query of the session (same type parsers, same
 * query timing at the driver).
 */

type Values = Record<string, unknown>;
interface DriverQuery {
  /** The driver's result, or (with a result mapper: arrays) the mapper's answer. */
  execute(values?: Values): Promise<{ rows: unknown[] } | unknown[]>;
}
/** The parts of a drizzle database or transaction used here (internal to drizzle, stable in 0.x). */
interface Internals {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session: {
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string | undefined,
      isResponseInArrayMode: boolean,
      customResultMapper?: (rows: unknown[][]) => unknown,
    ): DriverQuery;
  };
}

/** A query `build` made with placeholders for `V`'s values; call it with a database (or transaction) and the values. */
export type PreparedQuery<T, V extends Values> = (db: DbOrTx, values: V) => Promise<T[]>;

/** The rows as the driver read them: each an array of its columns in the statement's order. */
const asRead = (rows: unknown[][]) => rows;

/**
 * `options.arrays`: each row comes as an array of its columns (the driver's array row mode), not
 * an object keyed by column names: for statements that answer many rows, where the driver's
 * building of one object per row is a large part of the call (issue 31, the conversation list).
 */
interface PreparedOptions {
  arrays?: boolean;
}

const names = new Set<string>();

/**
 * `name` (unique, at most 63 characters) names the statement on PostgreSQL. `build` gets `p`,
 * which makes the placeholder of a value (the same one may appear several times).
 */
export function preparedQuery<T, V extends Values>(
  name: string,
  build: (p: (key: keyof V & string) => SQL) => SQL,
  options: PreparedOptions = {},
): PreparedQuery<T, V> {
  if (names.has(name)) throw new Error(`prepared query ${name} defined twice`);
  if (name.length > 63) throw new Error(`prepared query name ${name} longer than 63 characters`);
  names.add(name);
  let text: { sql: string; params: unknown[] } | undefined;
  // One driver query per drizzle session: the pool's lives as long as the process, a
  // transaction's as long as the transaction.
  const bySession = new WeakMap<object, DriverQuery>();
  return async (db, values) => {
    const { dialect, session } = db as unknown as Internals;
    text ??= dialect.sqlToQuery(build((key) => sql`${sql.placeholder(key)}`));
    let query = bySession.get(session);
    if (!query) {
      query = options.arrays
        ? session.prepareQuery(text, undefined, name, true, asRead)
        : session.prepareQuery(text, undefined, name, false);
      bySession.set(session, query);
    }
    const result = await query.execute(values);
    return (Array.isArray(result) ? result : result.rows) as T[];
  };
}

/** `query` run once (not prepared by name), its rows as arrays of their columns (see PreparedOptions). */
export async function queryArrays<T extends unknown[]>(db: DbOrTx, query: SQL): Promise<T[]> {
  const { dialect, session } = db as unknown as Internals;
  return (await session.prepareQuery(dialect.sqlToQuery(query), undefined, undefined, true, asRead).execute()) as T[];
}
