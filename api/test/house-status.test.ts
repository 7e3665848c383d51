// One definition of a house's status (HouseStatus in shared/src/enums.ts): the api keeps the
// stored house_status of a unit in step with its people in the same transaction, through every
// state, and the migration's backfill computes exactly what the api does.
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { HouseStatus, HouseType } from '@pm/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import { refreshEstateHouseStatus, refreshHouseStatus } from '../src/modules/person/house-status.repository';
import { signInAll, startTestApi, testEngines, type Session, type TestApi } from './kit';

describe.each(testEngines())('house status on %s', (engine) => {
  let api: TestApi;
  let people: Record<string, Session>;
  let estateId: number;

  beforeAll(async () => {
    api = await startTestApi(engine);
    people = await signInAll(api, { admin: 'admin', owner: 'resident1', tenant: 'resident2' });
    [{ id: estateId }] = await queryRows<{ id: number }>(
      api.db,
      sql`select housing_estate_id as id from unit order by id limit 1`,
    );
  });
  afterAll(async () => api?.close());

  const statusOf = async (unitId: number) =>
    (
      await queryRows<{ house_status: number; auth_status: number }>(
        api.db,
        sql`select house_status, auth_status from unit where id = ${unitId}`,
      )
    )[0];

  it('when people join, are certified and leave, then the unit goes through every status and auth_status follows the owner', async () => {
    const [house] = await queryRows<{ id: number; invite_code: string }>(
      api.db,
      sql`select u.id, u.invite_code from unit u
          where u.housing_estate_id = ${estateId}
            and not exists (select 1 from person_house ph where ph.unit_id = u.id)
            and not exists (select 1 from person_house_history hh where hh.unit_id = u.id)
          order by u.id limit 1`,
    );
    expect(await statusOf(house.id)).toEqual({ house_status: HouseStatus.unregistered, auth_status: 2 });

    const tenant = await people.tenant.post('/app/personhouse/join', { inviteCode: house.invite_code, identity: 2 });
    expect(tenant.status).toBe(200);
    expect((await statusOf(house.id)).house_status).toBe(HouseStatus.noOwner);

    const owner = await people.owner.post('/app/personhouse/join', { inviteCode: house.invite_code, identity: 1 });
    expect(owner.status).toBe(200);
    expect((await statusOf(house.id)).house_status).toBe(HouseStatus.notCertified);

    const certified = await people.admin.post('/base/personhouse/review', {
      personHouseId: owner.body.data.personHouseId,
      status: 2,
    });
    expect(certified.status).toBe(200);
    expect(await statusOf(house.id)).toEqual({ house_status: HouseStatus.bound, auth_status: 1 });

    // An owner whose link is not bound to an app account is certified but not bound.
    await api.db.execute(sql`update person_house set auth_status = 2 where id = ${owner.body.data.personHouseId}`);
    await refreshHouseStatus(api.db, HouseType.residential, [house.id]);
    expect(await statusOf(house.id)).toEqual({ house_status: HouseStatus.verified, auth_status: 1 });

    // The owner leaves: the link goes, the history row gets its leave time.
    await api.db.execute(sql`delete from person_house where id = ${owner.body.data.personHouseId}`);
    await api.db.execute(
      sql`update person_house_history set leave_time = now() where unit_id = ${house.id} and identity = 1`,
    );
    await refreshHouseStatus(api.db, HouseType.residential, [house.id]);
    expect(await statusOf(house.id)).toEqual({ house_status: HouseStatus.unbound, auth_status: 2 });
  });

  it('when an owner request is refused, then it does not count', async () => {
    const [house] = await queryRows<{ id: number; invite_code: string }>(
      api.db,
      sql`select u.id, u.invite_code from unit u
          where u.housing_estate_id = ${estateId}
            and not exists (select 1 from person_house ph where ph.unit_id = u.id)
            and not exists (select 1 from person_house_history hh where hh.unit_id = u.id)
          order by u.id limit 1`,
    );
    const asked = await people.owner.post('/app/personhouse/join', { inviteCode: house.invite_code, identity: 1 });
    expect((await statusOf(house.id)).house_status).toBe(HouseStatus.notCertified);
    const refused = await people.admin.post('/base/personhouse/review', {
      personHouseId: asked.body.data.personHouseId,
      status: 3,
    });
    expect(refused.status).toBe(200);
    expect(await statusOf(house.id)).toEqual({ house_status: HouseStatus.unregistered, auth_status: 2 });
  });

  it("when the migration's backfill runs on the demo estate, then it stores what the api computes, and the demo has houses in several statuses", async () => {
    const all = sql`select 'u' || id as k, house_status as s from unit union all
                    select 'c' || id, house_status from car_space union all
                    select 's' || id, house_status from shop order by 1`;
    await refreshEstateHouseStatus(api.db, estateId);
    const byApi = await queryRows<{ k: string; s: number }>(api.db, all);
    expect(new Set(byApi.map((r) => r.s)).size).toBeGreaterThanOrEqual(3);

    await api.db.execute(sql`update unit set house_status = 0`);
    await api.db.execute(sql`update car_space set house_status = 0`);
    await api.db.execute(sql`update shop set house_status = 0`);
    const migration = readFileSync(new URL('../drizzle/0008_house_status.sql', import.meta.url), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint').filter((s) => /UPDATE/.test(s)))
      await api.db.execute(sql.raw(statement));
    expect(await queryRows<{ k: string; s: number }>(api.db, all)).toEqual(byApi);
  });
});
