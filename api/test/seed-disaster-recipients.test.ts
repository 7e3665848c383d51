// The demo estate's disaster warnings have one recipient row per person, as a warning sent from
// the console has (issue 35: the chaos run's tabs counted warnings per row and found a resident
// with two houses twice, and resident accounts with no row at all): every person with a
// confirmed house of the estate, once each.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import { startTestApi, type TestApi } from './kit';

describe('the demo disaster warnings', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi('pglite');
  });
  afterAll(async () => api?.close());

  it('when the demo is seeded, then each warning has one row per person, every resident account among them', async () => {
    const warnings = await queryRows<{ id: number; company_id: number; housing_estate_id: number }>(
      api.db,
      sql`select id, company_id, housing_estate_id from disaster_warn where not revoked order by id`,
    );
    expect(warnings.length).toBeGreaterThan(0);
    for (const w of warnings) {
      const rows = await queryRows<{ person_id: number }>(
        api.db,
        sql`select person_id from disaster_warn_person where disaster_warn_id = ${w.id} order by person_id`,
      );
      const expected = await queryRows<{ person_id: number }>(
        api.db,
        sql`select distinct person_id from person_house
            where company_id = ${w.company_id} and housing_estate_id = ${w.housing_estate_id} and status = 2
            order by person_id`,
      );
      const people = rows.map((r) => r.person_id);
      expect(people).toEqual([...new Set(people)]);
      // Only people of the estate; the seed's later steps may confirm houses after the warning.
      expect(expected.map((r) => r.person_id)).toEqual(expect.arrayContaining(people));
      const accounts = await queryRows<{ person_id: number }>(
        api.db,
        sql`select distinct a.person_id from account a join person_house ph on ph.person_id = a.person_id
            where a.kind = 'resident' and ph.status = 2 and ph.housing_estate_id = ${w.housing_estate_id}`,
      );
      expect(people).toEqual(expect.arrayContaining(accounts.map((r) => r.person_id)));
    }
  });
});
