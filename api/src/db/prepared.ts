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
  execute(values: Values): Promise<{ rows: unknown[] }>;
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
    ): DriverQuery;
  };
}

/** A query `build` made with placeholders for `V`'s values; call it with a database (or transaction) and the values. */
export type PreparedQuery<T, V extends Values> = (db: DbOrTx, values: V) => Promise<T[]>;

const names = new Set<string>();

/**
 * `name` (unique, at most 63 characters) names the statement on PostgreSQL. `build` gets `p`,
 * which makes the placeholder of a value (the same one may appear several times).
 */
export function preparedQuery<T, V extends Values>(
  name: string,
  build: (p: (key: keyof V & string) => SQL) => SQL,
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
      query = session.prepareQuery(text, undefined, name, false);
      bySession.set(session, query);
    }
    return (await query.execute(values)).rows as T[];
  };
}
