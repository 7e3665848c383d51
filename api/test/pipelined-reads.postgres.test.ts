// Pipelined reads (api/src/db/pipelined-reads.ts, issue 34, part 37): the prepared reads on the
// pool go to a few connections in node-postgres's pipeline mode, the statements of one turn of the
// event loop in one write. Each statement answers its own values; one statement's error fails
// that statement only; a connection PostgreSQL drops is replaced; transactions stay on the pool;
// DATABASE_PIPELINE=0 sends the reads through the pool as before.
import { DrizzleQueryError, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Db } from '../src/db/open-database';
import { preparedQuery } from '../src/db/prepared';
import { queryRows } from '../src/db/sql';
import { freshSchema } from './kit/start-api';

/** The backend that ran the statement, and the statement's own value back. */
const backendOf = preparedQuery<{ pid: number; n: number }, { n: number }>(
  'test.pipelined.backend',
  (p) => sql`select pg_backend_pid() as pid, ${p('n')}::int as n`,
);

/** A statement PostgreSQL refuses when `n` is 0 (division by zero), answered otherwise. */
const divides = preparedQuery<{ q: number; pid: number }, { n: number }>(
  'test.pipelined.divides',
  (p) => sql`select (100 / ${p('n')}::int) as q, pg_backend_pid() as pid`,
);

async function open(pipelineConnections?: number): Promise<{ database: Database; drop(): Promise<void> }> {
  const schema = await freshSchema();
  const database = await openDatabase({ databaseUrl: schema.url, pipelineConnections });
  return { database, drop: schema.drop };
}

describe('pipelined reads on PostgreSQL', () => {
  let one: { database: Database; drop(): Promise<void> };
  let none: { database: Database; drop(): Promise<void> };
  beforeAll(async () => {
    one = await open(1);
    none = await open(0);
  });
  afterAll(async () => {
    for (const d of [one, none]) {
      await d?.database.close();
      await d?.drop();
    }
  });

  it('when many prepared reads are asked at once, then one pipelined connection answers each its own values', async () => {
    const rows = await Promise.all(Array.from({ length: 40 }, (_, n) => backendOf(one.database.db, { n })));
    expect(rows.map((r) => r[0].n)).toEqual(Array.from({ length: 40 }, (_, n) => n));
    expect(new Set(rows.map((r) => r[0].pid)).size).toBe(1);
    // Through the pool (DATABASE_PIPELINE=0), the same 40 spread over its connections.
    const pooled = await Promise.all(Array.from({ length: 40 }, (_, n) => backendOf(none.database.db, { n })));
    expect(pooled.map((r) => r[0].n)).toEqual(Array.from({ length: 40 }, (_, n) => n));
    expect(new Set(pooled.map((r) => r[0].pid)).size).toBeGreaterThan(1);
  });

  it('when one statement of a batch fails, then only it fails (drizzle error, driver error as cause) and the others answer', async () => {
    const answers = await Promise.allSettled([0, 1, 2, 0, 4, 5].map((n) => divides(one.database.db, { n })));
    expect(answers.map((a) => a.status)).toEqual([
      'rejected',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    const failed = (answers[0] as PromiseRejectedResult).reason as DrizzleQueryError;
    expect(failed).toBeInstanceOf(DrizzleQueryError);
    expect(failed.cause).toMatchObject({ code: '22012' });
    const answered = answers.flatMap((a) => (a.status === 'fulfilled' ? [a.value[0]] : []));
    expect(answered.map((r) => r.q)).toEqual([100, 50, 25, 20]);
    // All on the one pipelined connection, which the errors did not break.
    expect(new Set(answered.map((r) => r.pid)).size).toBe(1);
  });

  it('when PostgreSQL drops the pipelined connection, then the next read answers on a new one', async () => {
    const [{ pid }] = await backendOf(one.database.db, { n: 1 });
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.end();
    }
    // The client learns of the drop when its socket closes; a read sent meanwhile fails, never hangs.
    let answered: { pid: number; n: number } | undefined;
    for (let i = 0; i < 50 && !answered; i++) {
      answered = await backendOf(one.database.db, { n: 2 }).then(
        (r) => r[0],
        () => undefined,
      );
      if (!answered) await new Promise((r) => setTimeout(r, 20));
    }
    expect(answered?.n).toBe(2);
    expect(answered?.pid).not.toBe(pid);
    // The new connection is pipelined as the old one was.
    const again = await Promise.all(Array.from({ length: 20 }, (_, n) => backendOf(one.database.db, { n })));
    expect(new Set(again.map((r) => r[0].pid))).toEqual(new Set([answered?.pid]));
  });

  it('when a prepared read runs in a transaction, then it runs there, not on the pipelined connection', async () => {
    const seen = await (one.database.db as Db).transaction(async (tx) => {
      const own = await queryRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
      const prepared = await backendOf(tx, { n: 3 });
      // Meanwhile, reads outside the transaction: on the one pipelined connection.
      const outside = await Promise.all(Array.from({ length: 20 }, (_, n) => backendOf(one.database.db, { n })));
      return {
        own: Number(own[0].pid),
        prepared: prepared[0],
        outside: new Set(outside.map((r) => r[0].pid)),
      };
    });
    expect(seen.prepared).toEqual({ pid: seen.own, n: 3 });
    expect(seen.outside.size).toBe(1);
    expect(seen.outside.has(seen.own)).toBe(false);
  });
});
