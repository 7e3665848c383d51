// A staff number names one staff member of the estate (issue 30): the staff form and the import
// check it, and the database's unique index (migration staff_number_unique, whatever the case)
// holds it for writers that checked at the same moment. Two administrators adding the same
// number at once: one succeeds, the other is answered the form's own 409, never a 500; a write
// that bypasses the api is refused by the index. On every engine.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_NUMBER_UNIQUE } from '../src/db/schema';
import { isUniqueViolation } from '../src/db/sql';
import { signIn, startTestApi, testEngines, type Session, type TestApi } from './kit';

describe.each(testEngines())('staff number uniqueness on %s', (engine) => {
  let api: TestApi;
  let admin: Session;

  const add = (name: string, staffNumber: string) =>
    admin.post('/base/personcompany/saveorupdate', {
      name,
      gender: 1,
      staffNumber,
      position: 'Clerk',
      yearOfBirth: 1985,
    });
  const holders = async (staffNumber: string) =>
    (
      (await api.db.execute(
        sql`select count(*)::int as n from person_company where lower(staff_number) = lower(${staffNumber})`,
      )) as unknown as { rows: { n: number }[] }
    ).rows[0].n;

  beforeAll(async () => {
    api = await startTestApi(engine);
    admin = await signIn(api, 'admin');
  });
  afterAll(async () => api?.close());

  it('when two administrators add the same staff number at once, then one is added and the other is told the number is taken', async () => {
    const numbers = ['UQ100', 'uq100'];
    const answers = await Promise.all([add('Twin one', numbers[0]), add('Twin two', numbers[1])]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const refused = numbers[answers.findIndex((a) => a.status === 409)];
    expect(answers.find((a) => a.status === 409)!.body.msg).toBe(
      `Staff number ${refused} is already used in this estate`,
    );
    // The same answer as the form's own check gives for a number taken long before.
    const later = await add('Twin three', 'UQ100');
    expect([later.status, later.body.msg]).toEqual([409, 'Staff number UQ100 is already used in this estate']);
    expect(await holders('UQ100')).toBe(1);
  });

  it('when a second employment of the estate is written with a taken number past the api, then the database refuses it', async () => {
    expect((await add('Direct one', 'UQ200')).status).toBe(200);
    const [{ personId, companyId, housingEstateId }] = (
      (await api.db.execute(
        sql`select person_id as "personId", company_id as "companyId", housing_estate_id as "housingEstateId"
            from person_company where staff_number = 'UQ200'`,
      )) as unknown as { rows: { personId: number; companyId: number; housingEstateId: number }[] }
    ).rows;
    const [{ id: other }] = (
      (await api.db.execute(
        sql`insert into person (company_id, housing_estate_id, name, account_type)
            values (${companyId}, ${housingEstateId}, 'Direct two', 4) returning id`,
      )) as unknown as { rows: { id: number }[] }
    ).rows;
    expect(personId).not.toBe(other);
    const refused = await api.db
      .execute(
        sql`insert into person_company (company_id, housing_estate_id, person_id, staff_number)
            values (${companyId}, ${housingEstateId}, ${other}, 'uq200')`,
      )
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(isUniqueViolation(refused, STAFF_NUMBER_UNIQUE)).toBe(true);
    expect(await holders('UQ200')).toBe(1);
  });
});
