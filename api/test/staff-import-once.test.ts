// A corrected staff file imported again (issue 30: "adds the new rows and updates the known ones,
// keyed by staff number, never twice"): a known staff member whose name and job change together
// is one staff member afterwards, with the new values and a search text that finds them, and their
// employment is written once (not once by the person's search trigger and again by the import's
// own update), on every engine. The writes are counted by a trigger this test adds.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestApi, testEngines, type Session, type TestApi, staffFile } from './kit';

const query = async <T>(api: TestApi, text: ReturnType<typeof sql>): Promise<T[]> =>
  ((await api.db.execute(text)) as unknown as { rows: T[] }).rows;

describe.each(testEngines())('a corrected staff import on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let companyId: number;

  const importFile = async (rows: (string | number)[][]) => {
    const res = await api.http
      .post(`/base/personcompany/importperson/${companyId}`)
      .set(admin.headers)
      .attach('file', await staffFile(rows), { filename: 'staff.xlsx' });
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    api = await startTestApi(engine);
    admin = await signIn(api, 'admin');
    companyId = (await admin.get(`/account/info/${admin.accId}`)).body.data.company.companyId;
    await api.db.execute(sql`create table test_staff_writes (person_company_id int not null)`);
    await api.db.execute(sql`create function test_count_staff_write() returns trigger language plpgsql as $$
      begin insert into test_staff_writes values (NEW.id); return null; end $$`);
    await api.db.execute(sql`create trigger test_count_staff_write after update on person_company
      for each row execute function test_count_staff_write()`);
  });
  afterAll(async () => api?.close());

  it('when a known row changes its name and its job together, then it is updated once and found by its new values', async () => {
    const before = [
      ['ONCE1', 'Alice Wong', 2, '61230001', 'Clerk', 1980, ''],
      ['ONCE2', 'Bob Chan', 1, '61230002', 'Guard', 1975, ''],
      ['ONCE3', 'Carol Lee', 2, '61230003', 'Cleaner', 1990, ''],
    ];
    expect(await importFile(before)).toEqual({ total: 3, created: 3, updated: 0 });
    await api.db.execute(sql`delete from test_staff_writes`);

    // ONCE1: name and position; ONCE2: name only; ONCE3: position and year only; ONCE4: new.
    const corrected = [
      ['ONCE1', 'Alice Wong-Ho', 2, '61230001', 'Senior clerk', 1980, ''],
      ['ONCE2', 'Bobby Chan', 1, '61230002', 'Guard', 1975, ''],
      ['ONCE3', 'Carol Lee', 2, '61230003', 'Head cleaner', 1991, ''],
      ['ONCE4', 'Dan Ho', 1, '61230004', 'Driver', 1985, ''],
    ];
    expect(await importFile(corrected)).toEqual({ total: 4, created: 1, updated: 3 });

    const rows = await query<{ staff_number: string; name: string; position: string; search: string; writes: number }>(
      api,
      sql`select pc.staff_number, p.name, pc.position, pc.search,
                 (select count(*)::int from test_staff_writes w where w.person_company_id = pc.id) as writes
          from person_company pc join person p on p.id = pc.person_id
          where pc.staff_number like 'ONCE%' order by pc.staff_number`,
    );
    expect(rows).toEqual([
      {
        staff_number: 'ONCE1',
        name: 'Alice Wong-Ho',
        position: 'Senior clerk',
        search: 'once1\x1falice wong-ho\x1f61230001\x1fsenior clerk',
        writes: 1,
      },
      {
        staff_number: 'ONCE2',
        name: 'Bobby Chan',
        position: 'Guard',
        search: 'once2\x1fbobby chan\x1f61230002\x1fguard',
        writes: 1,
      },
      {
        staff_number: 'ONCE3',
        name: 'Carol Lee',
        position: 'Head cleaner',
        search: 'once3\x1fcarol lee\x1f61230003\x1fhead cleaner',
        writes: 1,
      },
      {
        staff_number: 'ONCE4',
        name: 'Dan Ho',
        position: 'Driver',
        search: 'once4\x1fdan ho\x1f61230004\x1fdriver',
        writes: 0,
      },
    ]);

    // The same file again writes nothing.
    await api.db.execute(sql`delete from test_staff_writes`);
    expect(await importFile(corrected)).toEqual({ total: 4, created: 0, updated: 4 });
    expect(await query(api, sql`select * from test_staff_writes`)).toEqual([]);
  });
});
