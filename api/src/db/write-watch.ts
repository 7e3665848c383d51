// Which tables a process writes, told at the commit of the write (issue 34: the answers the api
// keeps, e.g. a work order by id, are dropped when a table they read is written). At the driver,
// as the query timing is (metrics/db-timing.ts): every statement drizzle or raw SQL sends goes
// through it, whichever module wrote it.
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';

/** Told the tables a committed statement or transaction wrote (a rolled-back one may be told too). */
export type OnWrite = (tables: ReadonlySet<string>) => void;

const WRITE = /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+(?:only\s+)?(?:"?\w+"?\.)?"?(\w+)"?/gi;
const BEGIN = /^\s*(?:begin|start\s+transaction)\b/i;
const END = /^\s*(?:commit|rollback|end|abort)\b/i;
const NONE: ReadonlySet<string> = new Set();
/** The tables each statement text writes, found once per text (prepared and built queries repeat theirs). */
const byText = new Map<string, ReadonlySet<string>>();

/**
 * The tables a statement writes (INSERT INTO, UPDATE, DELETE FROM, TRUNCATE, in CTEs too), in
 * lower case. A word after UPDATE that is no table (`do update set`) is named too: one more
 * table told, never one missed.
 */
export function tablesWritten(text: string): ReadonlySet<string> {
  let found = byText.get(text);
  if (found === undefined) {
    const tables = new Set<string>();
    for (const m of text.matchAll(WRITE)) tables.add(m[1].toLowerCase());
    found = tables.size ? tables : NONE;
    if (byText.size >= 2000) byText.clear();
    byText.set(text, found);
  }
  return found;
}

const textOf = (arg: unknown): string =>
  typeof arg === 'string'
    ? arg
    : typeof (arg as { text?: unknown })?.text === 'string'
      ? (arg as { text: string }).text
      : '';

/** Calls `after` once the call `original.apply(self, args)` is done (promise or callback style). */
function whenDone(original: (...a: unknown[]) => unknown, self: unknown, args: unknown[], after: () => void): unknown {
  const last = args.at(-1);
  if (typeof last === 'function') {
    args[args.length - 1] = (...results: unknown[]) => {
      after();
      return (last as (...a: unknown[]) => unknown)(...results);
    };
    return original.apply(self, args);
  }
  const result = original.apply(self, args);
  if (result && typeof (result as Promise<unknown>).then === 'function')
    (result as Promise<unknown>).then(after, after);
  // A submittable (a cursor): told at once, before its end (an extra drop, never a missed one).
  else after();
  return result;
}

/**
 * Each client the pool opens: a statement outside a transaction is told when it is done; inside
 * one (BEGIN … COMMIT / ROLLBACK on the client), the transaction's tables are told when its
 * COMMIT is done, before the caller's code after the commit runs.
 */
export function watchPgPool(pool: pg.Pool, onWrite: OnWrite): void {
  pool.on('connect', (client) => {
    const original = client.query as unknown as (...a: unknown[]) => unknown;
    let inTransaction = false;
    let pending: Set<string> | null = null;
    (client as unknown as { query: unknown }).query = function watched(this: unknown, ...args: unknown[]) {
      const text = textOf(args[0]);
      if (BEGIN.test(text)) inTransaction = true;
      else if (END.test(text)) {
        const tables = pending;
        inTransaction = false;
        pending = null;
        if (tables) return whenDone(original, this, args, () => onWrite(tables));
      } else {
        const tables = tablesWritten(text);
        if (tables.size) {
          if (!inTransaction) return whenDone(original, this, args, () => onWrite(tables));
          pending ??= new Set();
          for (const t of tables) pending.add(t);
        }
      }
      return original.apply(this, args);
    };
  });
}

/** PGlite's `query` and `exec` (told when done), and its transactions (told when they end). */
export function watchPglite(client: PGlite, onWrite: OnWrite): void {
  const wrap = (target: object, method: 'query' | 'exec', found?: Set<string>) => {
    const original = (target as Record<string, unknown>)[method] as (...a: unknown[]) => unknown;
    (target as Record<string, unknown>)[method] = function watched(this: unknown, ...args: unknown[]) {
      const tables = tablesWritten(textOf(args[0]));
      if (!tables.size) return original.apply(this, args);
      if (found) {
        for (const t of tables) found.add(t);
        return original.apply(this, args);
      }
      return whenDone(original, this, args, () => onWrite(tables));
    };
  };
  wrap(client, 'query');
  wrap(client, 'exec');
  const transaction = client.transaction.bind(client);
  client.transaction = (<T>(callback: (tx: Transaction) => Promise<T>) => {
    const found = new Set<string>();
    const done = transaction((tx) => {
      wrap(tx, 'query', found);
      wrap(tx, 'exec', found);
      return callback(tx);
    });
    const tell = () => {
      if (found.size) onWrite(found);
    };
    done.then(tell, tell);
    return done;
  }) as PGlite['transaction'];
}
