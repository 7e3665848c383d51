// Reading the database a test's api writes to, for "nothing was written" assertions: the row
// count of each table, before and after a refused call.
import { sql } from 'drizzle-orm';
import type { TestApi } from './start-api';

/** The number of rows of each of `tables` (names of the api's schema, e.g. `complain`, `message`). */
export async function rowCounts<T extends string>(api: TestApi, tables: readonly T[]): Promise<Record<T, number>> {
  const counts = {} as Record<T, number>;
  for (const table of tables) {
    const result = (await api.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`)) as unknown as {
      rows: { n: number }[];
    };
    counts[table] = result.rows[0].n;
  }
  return counts;
}
