// Prepared raw queries (api/src/db/prepared.ts, issue 34): the same rows as the query built per
// call, on the pool and in a transaction, on both engines; on PostgreSQL a statement prepared by
// name on the connection, so it is parsed and planned there once.
import { DrizzleQueryError, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Db } from '../src/db/open-database';
import { preparedQuery, queryArrays } from '../src/db/prepared';
import { queryRows } from '../src/db/sql';
import { freshSchema, testEngines } from './kit/start-api';

const accountsNamed = preparedQuery<{ username: string; n: number }, { name: string; min: number }>(
  'test.accounts-named',
  (p) => sql`select ${p('name')}::text as username, (${p('min')}::int + 1) as n where ${p('min')}::int >= 0`,
);

/** The same statement, its rows as arrays of their columns (the conversation list's way, issue 31). */
const accountsNamedArrays = preparedQuery<[string, number, string | null], { name: string; min: number }>(
  'test.accounts-named.arrays',
  (p) =>
    sql`select ${p('name')}::text as username, (${p('min')}::int + 1) as n, null::timestamptz as at, now() as now
      where ${p('min')}::int >= 0`,
  { arrays: true },
);

/** Values written into the statement between placeholders (a kind's name, as the list pages have). */
const withConstants = preparedQuery<{ kind: string; n: number; label: string }, { a: number; b: number }>(
  'test.with-constants',
  (p) =>
    sql`select ${'complain'}::text as kind, (${p('a')}::int + ${p('b')}::int + ${5}::int) as n, ${'x'}::text || ${p('a')}::text as label`,
);

describe('preparedQuery', () => {
  it('when a name is defined twice or is longer than PostgreSQL keeps, then it refuses', () => {
    expect(() => preparedQuery('test.accounts-named', () => sql`select 1`)).toThrow(/twice/);
    expect(() => preparedQuery('x'.repeat(64), () => sql`select 1`)).toThrow(/63/);
  });
});

for (const engine of testEngines()) {
  describe(`preparedQuery on ${engine}`, () => {
    let database: Database;
    let drop: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      if (engine === 'postgres') {
        const schema = await freshSchema();
        drop = schema.drop;
        database = await openDatabase({ databaseUrl: schema.url });
      } else database = await openDatabase({});
    });
    afterAll(async () => {
      await database?.close();
      await drop?.();
    });

    it('when called with values, then it answers the rows the same query built per call answers, each call its own values', async () => {
      const db = database.db;
      for (const [name, min] of [
        ['a', 1],
        ['b', 41],
        ['c', -1],
      ] as const) {
        const built = await queryRows(
          db,
          sql`select ${name}::text as username, (${min}::int + 1) as n where ${min}::int >= 0`,
        );
        expect(await accountsNamed(db, { name, min })).toEqual(built);
      }
      // Many at once over the pool's connections.
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => accountsNamed(db, { name: `p${i}`, min: i })),
      );
      expect(answers.map((rows) => rows[0])).toEqual(
        Array.from({ length: 30 }, (_, i) => ({ username: `p${i}`, n: i + 1 })),
      );
    });

    it('when asked for arrays, then each row is its columns in order, typed as the object rows are', async () => {
      const db = database.db;
      const objects = await queryRows<Record<string, unknown>>(
        db,
        sql`select 'a'::text as username, (41 + 1) as n, null::timestamptz as at, timestamptz '2026-11-28 04:23:10.123456+00' as t`,
      );
      const arrays = await queryArrays(
        db,
        sql`select 'a'::text as username, (41 + 1) as n, null::timestamptz as at, timestamptz '2026-11-28 04:23:10.123456+00' as t`,
      );
      expect(arrays).toEqual(objects.map((row) => Object.values(row)));
      // Timestamps stay the driver's text, as in the object rows (the repositories format them).
      expect(typeof arrays[0][3]).toBe('string');
      const prepared = await accountsNamedArrays(db, { name: 'b', min: 1 });
      expect(prepared).toHaveLength(1);
      expect(prepared[0].slice(0, 3)).toEqual(['b', 2, null]);
      expect(await accountsNamedArrays(db, { name: 'c', min: -1 })).toEqual([]);
      const inTx = await (db as Db).transaction((tx) => accountsNamedArrays(tx, { name: 'tx', min: 7 }));
      expect(inTx[0].slice(0, 3)).toEqual(['tx', 8, null]);
    });

    it('when the statement holds values of its own between the placeholders, then each call sends them with its values', async () => {
      for (const [a, b] of [
        [1, 2],
        [10, 20],
      ])
        expect(await withConstants(database.db, { a, b })).toEqual([
          { kind: 'complain', n: a + b + 5, label: `x${a}` },
        ]);
      const inTx = await (database.db as Db).transaction((tx) => withConstants(tx, { a: 3, b: 4 }));
      expect(inTx).toEqual([{ kind: 'complain', n: 12, label: 'x3' }]);
    });

    it('when a value is missing or the database refuses one, then it fails as drizzle does, the driver error as the cause', async () => {
      await expect(withConstants(database.db, { a: 1 } as never)).rejects.toThrow('No value for placeholder "b"');
      const failed = await withConstants(database.db, { a: 'not a number' as never, b: 1 }).catch(
        (err: unknown) => err,
      );
      expect(failed).toBeInstanceOf(DrizzleQueryError);
      expect((failed as DrizzleQueryError).cause).toMatchObject({ code: '22P02' });
    });

    it('when called in a transaction, then it runs there (sees its uncommitted rows)', async () => {
      const seen = await (database.db as Db).transaction(async (tx) => {
        await tx.execute(sql`create temporary table prepared_probe (n int) on commit drop`);
        await tx.execute(sql`insert into prepared_probe values (7)`);
        const probe = await queryRows<{ n: number }>(tx, sql`select n from prepared_probe`);
        const prepared = await accountsNamed(tx, { name: 'tx', min: probe[0].n });
        const statements =
          engine === 'postgres'
            ? await queryRows<{ name: string }>(
                tx,
                sql`select name from pg_prepared_statements where name = 'test.accounts-named'`,
              )
            : [{ name: 'test.accounts-named' }];
        return { prepared, statements };
      });
      expect(seen.prepared).toEqual([{ username: 'tx', n: 8 }]);
      // PostgreSQL: prepared by name on the transaction's connection.
      expect(seen.statements).toEqual([{ name: 'test.accounts-named' }]);
    });
  });
}
