import { DrizzleQueryError, is, NoopLogger, Param, Placeholder, sql, type SQL } from 'drizzle-orm';
import { NodePgPreparedQuery } from 'drizzle-orm/node-postgres';
import type { DbOrTx } from './database-types';
import { pipelinedReadsOf } from './pipelined-reads';

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
  // One runner per drizzle session: the pool's lives as long as the process, a transaction's as
  // long as the transaction.
  const bySession = new WeakMap<object, Run>();
  return async (db, values) => {
    const { dialect, session } = db as unknown as Internals;
    text ??= dialect.sqlToQuery(build((key) => sql`${sql.placeholder(key)}`));
    let run = bySession.get(session);
    if (!run) {
      const query = options.arrays
        ? session.prepareQuery(text, undefined, name, true, asRead)
        : session.prepareQuery(text, undefined, name, false);
      run = runnerOf(query, text, options.arrays === true);
      bySession.set(session, run);
    }
    return (await run(values)) as T[];
  };
}

/** One call of a prepared query: its rows. */
type Run = (values: Values) => Promise<unknown[]>;

/** The parts of drizzle's node-postgres prepared query used here (internal to drizzle, stable in 0.x). */
interface NodePgInternals {
  client: { query(config: object, values: unknown[]): Promise<{ rows: unknown[] }> };
  logger: unknown;
  rawQueryConfig: object;
  queryConfig: object;
}

/**
 * How a call runs `query`. On node-postgres, the driver is called at once with drizzle's own query
 * config (its name, text and type parsers) and the values in the placeholders' order, found once:
 * what drizzle's `execute` does, without its per-call layers (five async functions for tracing,
 * its cache and its logger, none of them in use here, and the values' placeholders looked up
 * with `is()` on every call; issue 34, part 34). Failures are wrapped in drizzle's
 * DrizzleQueryError as its `execute` wraps them. Anything else (PGlite, a logger) runs drizzle's
 * `execute`. A read (`select …`) on the pool goes to the pool's pipelined connections when it has
 * them (db/pipelined-reads.ts, issue 34, part 37); a transaction's statements stay on its client.
 */
function runnerOf(query: DriverQuery, text: { sql: string; params: unknown[] }, arrays: boolean): Run {
  const driver = query as unknown as NodePgInternals;
  // Each parameter's placeholder name, or undefined for a value written into the statement (drizzle
  // sends those as they are: fillPlaceholders).
  const names = text.params.map((p) => (is(p, Placeholder) ? p.name : undefined));
  if (!is(query, NodePgPreparedQuery) || !is(driver.logger, NoopLogger) || text.params.some((p) => is(p, Param)))
    return async (values) => {
      const result = await query.execute(values);
      return Array.isArray(result) ? result : result.rows;
    };
  const config = arrays ? driver.queryConfig : driver.rawQueryConfig;
  const pipelined = /^\s*select\b/i.test(text.sql) ? pipelinedReadsOf(driver.client) : undefined;
  const client = pipelined ?? driver.client;
  return async (values) => {
    const params = text.params.slice();
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      if (name === undefined) continue;
      if (!(name in values)) throw new Error(`No value for placeholder "${name}" was provided`);
      params[i] = values[name];
    }
    let result: { rows: unknown[] };
    try {
      result = await client.query(config, params);
    } catch (err) {
      throw new DrizzleQueryError(text.sql, params, err as Error);
    }
    return arrays ? asRead(result.rows as unknown[][]) : result.rows;
  };
}

/** `query` run once (not prepared by name), its rows as arrays of their columns (see PreparedOptions). */
export async function queryArrays<T extends unknown[]>(db: DbOrTx, query: SQL): Promise<T[]> {
  const { dialect, session } = db as unknown as Internals;
  return (await session.prepareQuery(dialect.sqlToQuery(query), undefined, undefined, true, asRead).execute()) as T[];
}
