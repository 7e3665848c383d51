// Query timing for api_db_query_duration_seconds, at the driver (every query drizzle or raw SQL
// sends goes through it): node-postgres clients of the pool, and the embedded PGlite.
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';

export type ObserveQuery = (seconds: number) => void;

const now = () => performance.now();

/** Wraps `target[method]` so each call's duration (promise or callback style) is observed. */
function timeMethod(target: object, method: string, observe: ObserveQuery): void {
  const original = (target as Record<string, unknown>)[method] as ((...args: unknown[]) => unknown) | undefined;
  if (typeof original !== 'function') return;
  (target as Record<string, unknown>)[method] = function timed(this: unknown, ...args: unknown[]) {
    const started = now();
    const last = args[args.length - 1];
    // One closure per call, and only where it is needed: the callback (the pool's queries) or the
    // promise's. Not a named one: under tsx each named function made per call is also given its
    // name by a helper (issue 34, part 34: 0.8 % of a cold list page's api CPU).
    if (typeof last === 'function') {
      args[args.length - 1] = (...results: unknown[]) => {
        observe((now() - started) / 1000);
        return (last as (...a: unknown[]) => unknown)(...results);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args);
    if (result && typeof (result as Promise<unknown>).then === 'function')
      (result as Promise<unknown>).then(
        () => observe((now() - started) / 1000),
        () => observe((now() - started) / 1000),
      );
    return result;
  };
}

/** Every client the pool opens has its `query` timed (pool.query and transactions both use them). */
export function timePgPool(pool: pg.Pool, observe: ObserveQuery): void {
  pool.on('connect', (client) => timeMethod(client, 'query', observe));
}

/** One node-postgres client's `query` (the pipelined reads' connections: db/pipelined-reads.ts). */
export function timePgClient(client: pg.Client, observe: ObserveQuery): void {
  timeMethod(client, 'query', observe);
}

/** PGlite's `query` and `exec`, and those of each transaction it opens. */
export function timePglite(client: PGlite, observe: ObserveQuery): void {
  timeMethod(client, 'query', observe);
  timeMethod(client, 'exec', observe);
  const transaction = client.transaction.bind(client);
  client.transaction = (<T>(callback: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      timeMethod(tx, 'query', observe);
      timeMethod(tx, 'exec', observe);
      return callback(tx);
    })) as PGlite['transaction'];
}
