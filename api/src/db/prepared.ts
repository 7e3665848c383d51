import { DrizzleQueryError, fillPlaceholders, is, Param, Placeholder, sql, type SQL } from 'drizzle-orm';
import { NodePgPreparedQuery } from 'drizzle-orm/node-postgres';
import type { DbOrTx } from './database-types';

/**
 * Prepared raw queries for the hot paths (issue 34). The SQL is built and turned into text ONCE,
 * with named placeholders for the values; each call only fills the values in. On PostgreSQL the
 * statement is also prepared by name on each pooled connection (parsed and planned once there,
 * then only bound and executed). The answer is the same rows `queryRows` gives for the same SQL:
 * the query is drizzle's own prepared query of the session (same type parsers, same query timing
 * at the driver). On node-postgres its config (name, text, type parsers) is handed to the pool or
 * the transaction's client directly, with the values in order and errors wrapped as drizzle
 * wraps them: drizzle's execute adds three async layers (tracing, cache, placeholders) per call
 * (issue 34).
 */

type Values = Record<string, unknown>;
interface DriverQuery {
  execute(values: Values): Promise<{ rows: unknown[] }>;
}
/** What drizzle's node-postgres prepared query holds: the pool (or a transaction's client) and its config. */
interface NodePgQuery {
  client?: { query(config: object, values: unknown[]): Promise<{ rows: unknown[] }> };
  rawQueryConfig?: { name?: string; text: string };
}
type Run = (values: Values) => Promise<unknown[]>;
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
  // One runner per drizzle session: the pool's lives as long as the process, a transaction's as
  // long as the transaction.
  const bySession = new WeakMap<object, Run>();
  return async (db, values) => {
    const { dialect, session } = db as unknown as Internals;
    text ??= dialect.sqlToQuery(build((key) => sql`${sql.placeholder(key)}`));
    let run = bySession.get(session);
    if (!run) {
      run = runner(session.prepareQuery(text, undefined, name, false), text.params);
      bySession.set(session, run);
    }
    return (await run(values)) as T[];
  };
}

/** The values of a call in the statement's order, as drizzle's fillPlaceholders gives them. */
function orderValues(params: unknown[]): ((values: Values) => unknown[]) | null {
  // Only plain placeholders and constants are taken here; anything else stays with drizzle.
  if (params.some((p) => is(p, Param))) return null;
  const keys = params.map((p) => (is(p, Placeholder) ? p.name : null));
  return (values) =>
    keys.map((key, i) => {
      if (key === null) return params[i];
      if (!(key in values)) return fillPlaceholders([params[i]], values)[0]; // drizzle's own error
      return values[key];
    });
}

function runner(query: DriverQuery, params: unknown[]): Run {
  const { client, rawQueryConfig: config } = query as DriverQuery & NodePgQuery;
  const order = orderValues(params);
  if (!is(query, NodePgPreparedQuery) || !client || !config?.name || !order)
    return async (values) => (await query.execute(values)).rows;
  return async (values) => {
    const ordered = order(values);
    try {
      return (await client.query(config, ordered)).rows;
    } catch (e) {
      throw new DrizzleQueryError(config.text, ordered, e as Error);
    }
  };
}
