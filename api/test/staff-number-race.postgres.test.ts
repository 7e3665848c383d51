// The race the staff-number check cannot see (issue 30), made certain on PostgreSQL: a rival
// transaction writes a staff number and has not committed when the staff form or the import
// checks it, so the check passes and only the unique index (migration staff_number_unique)
// stops the api's write, which waits for the rival and is then refused. The caller gets the
// check's own 409 with the number, never a 500, and nothing of the refused write stays.
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestApi, type Session, type TestApi, staffFile } from './kit';

describe('a staff number taken by an uncommitted rival on postgres', () => {
  let api: TestApi;
  let admin: Session;
  let rival: pg.Client;
  let tenant: { companyId: number; housingEstateId: number };

  beforeAll(async () => {
    api = await startTestApi('postgres');
    admin = await signIn(api, 'admin');
    // The api's own database (a copy of the run's template): a second connection to its rows.
    rival = new pg.Client({ connectionString: api.databaseUrl });
    await rival.connect();
    const { rows } = await rival.query(
      `select company_id as "companyId", housing_estate_id as "housingEstateId" from person_company
       where person_id = $1`,
      [admin.personId],
    );
    tenant = rows[0];
  });
  afterAll(async () => {
    await rival?.end();
    await api?.close();
  });

  /** Runs `write` while the rival holds `number` uncommitted; commits the rival once the write waits on it. */
  async function againstRival<T>(number: string, write: () => Promise<T>): Promise<T> {
    await rival.query('begin');
    const { rows } = await rival.query(
      `insert into person (company_id, housing_estate_id, name, account_type) values ($1, $2, 'Rival', 4) returning id`,
      [tenant.companyId, tenant.housingEstateId],
    );
    await rival.query(
      `insert into person_company (company_id, housing_estate_id, person_id, staff_number, position)
       values ($1, $2, $3, $4, 'Rival')`,
      [tenant.companyId, tenant.housingEstateId, rows[0].id, number],
    );
    const answer = Promise.resolve(write()); // a supertest call is sent once something awaits it
    const rivalPid = (await rival.query('select pg_backend_pid() as pid')).rows[0].pid as number;
    // The api's insert waits for the rival's transaction (a lock on its transaction id).
    for (;;) {
      const waiting = await api.db.execute(
        sql`select 1 from pg_locks w join pg_locks h on h.transactionid = w.transactionid and h.granted
            where w.locktype = 'transactionid' and not w.granted and h.pid = ${rivalPid}`,
      );
      if ((waiting as unknown as { rows: unknown[] }).rows.length > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await rival.query('commit');
    return answer;
  }

  const holders = async (number: string) =>
    (await rival.query(`select count(*)::int as n from person_company where lower(staff_number) = lower($1)`, [number]))
      .rows[0].n;

  it('when the staff form adds a number a rival writes at the same moment, then it answers 409 with the number', async () => {
    const res = await againstRival('RACE1', () =>
      admin.post('/base/personcompany/saveorupdate', {
        name: 'Late',
        gender: 1,
        staffNumber: 'race1',
        position: 'Clerk',
        yearOfBirth: 1985,
      }),
    );
    expect([res.status, res.body.msg]).toEqual([409, 'Staff number race1 is already used in this estate']);
    expect(await holders('RACE1')).toBe(1);
    expect((await rival.query(`select count(*)::int as n from person where name = 'Late'`)).rows[0].n).toBe(0);
  });

  it('when an import adds a number a rival writes at the same moment, then it answers 409 with the number and writes nothing', async () => {
    const file = await staffFile([
      ['RACE2A', 'Import one', 1, '', 'Clerk', 1980, ''],
      ['RACE2B', 'Import two', 2, '', 'Clerk', 1981, ''],
    ]);
    const res = await againstRival('race2b', () =>
      api.http
        .post(`/base/personcompany/importperson/${tenant.companyId}`)
        .set(admin.headers)
        .attach('file', file, { filename: 'staff.xlsx' }),
    );
    expect([res.status, res.body.msg]).toEqual([409, 'Staff number RACE2B is already used in this estate']);
    expect([await holders('RACE2A'), await holders('RACE2B')]).toEqual([0, 1]);
  });
});
