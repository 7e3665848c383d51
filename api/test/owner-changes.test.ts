// Owner replacements for the dashboard (issue 22, SPEC §1): POST /base/personhousehistory/owners.
// A certified owner change heads the list with the old and the new owner; only owners (not
// tenants leaving) and only the house types the staff may list; another tenant sees none of it;
// no list permission 403, resident 403, no token 401; bad input 400 in the asked language.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import {
  callerOf,
  otherTenant,
  roleWith,
  rowCounts,
  signInAll,
  staffWithRole,
  startTestApi,
  testEngines,
  type Session,
  type TestApi,
} from './kit';

const PATH = '/base/personhousehistory/owners';

interface Row {
  personHouseHistoryId: number;
  personId: number;
  name: string;
  newOwnerName: string | null;
  houseType: number;
  houseId: number;
  unitName: string | null;
  leaveTime: string;
  operationType: number;
}

describe.each(testEngines())('owner replacements on %s', (engine) => {
  let api: TestApi;
  let s: Record<'admin' | 'first' | 'second' | 'tenant', Session>;
  let unit: { id: number; invite_code: string };

  const join = async (who: Session, identity: number) => {
    const res = await who.post('/app/personhouse/join', { inviteCode: unit.invite_code, identity });
    expect(res.status).toBe(200);
    return res.body.data.personHouseId as number;
  };
  const certify = async (personHouseId: number, replaceOwner?: boolean) =>
    expect((await s.admin.post('/base/personhouse/review', { personHouseId, status: 2, replaceOwner })).status).toBe(
      200,
    );
  const names = async (who: Session) =>
    Object.fromEntries(
      (
        await queryRows<{ id: number; name: string }>(
          api.db,
          sql`select id, name from person where id in (${s.first.personId}, ${s.second.personId}, ${who.personId})`,
        )
      ).map((p) => [p.id, p.name]),
    );

  beforeAll(async () => {
    api = await startTestApi(engine);
    s = await signInAll(api, { admin: 'admin', first: 'resident3', second: 'resident5', tenant: 'resident2' });
    [unit] = await queryRows(
      api.db,
      sql`select u.id, u.invite_code from unit u where u.housing_estate_id = 1
          and not exists (select 1 from person_house ph where ph.unit_id = u.id)
          and not exists (select 1 from person_house_history hh where hh.unit_id = u.id) order by u.id limit 1`,
    );
    // An owner, then a second owner who replaces them (SPEC §4), and a tenant who leaves.
    await certify(await join(s.first, 1));
    await certify(await join(s.tenant, 2));
    await certify(await join(s.second, 1), true);
    expect((await s.tenant.post('/app/personhouse/leave', { houseType: 1, houseId: unit.id })).status).toBe(200);
  });
  afterAll(async () => api?.close());

  it('when an owner is replaced, then the change heads the list with the old owner, the house and the new owner; a tenant leaving is not an owner change', async () => {
    const res = await s.admin.post(PATH, { limit: 5 });
    expect(res.status).toBe(200);
    const rows = res.body.data as Row[];
    expect(rows.length).toBeLessThanOrEqual(5);
    const who = await names(s.second);
    expect(rows[0]).toMatchObject({
      personId: s.first.personId,
      name: who[s.first.personId],
      newOwnerName: who[s.second.personId],
      houseType: 1,
      houseId: unit.id,
      unitName: expect.any(String),
      operationType: 1,
    });
    expect(Date.now() - Date.parse(rows[0].leaveTime)).toBeLessThan(60_000);
    expect(rows.map((r) => r.personId)).not.toContain(s.tenant.personId);
    // Joining writes a history row too (no leave time): the new owner is not an owner who left.
    expect(rows.map((r) => r.personId)).not.toContain(s.second.personId);
    // Newest first, and the limit is kept.
    const times = rows.map((r) => Date.parse(r.leaveTime));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(((await s.admin.post(PATH, { limit: 1 })).body.data as Row[]).length).toBe(1);
    // Without a body: five at most.
    expect((await s.admin.post(PATH, {})).status).toBe(200);
  });

  it('when the caller may not list units, car parks nor shops, then 403; a resident 403; no token 401; car parks only sees no unit changes', async () => {
    const houseLists = ['unit:list', 'carpark:list', 'shop:list'];
    const none = await staffWithRole(api, s.admin, await roleWith(s.admin, (p) => !houseLists.includes(p)));
    expect((await none.post(PATH, { limit: 5 })).status).toBe(403);
    expect((await s.first.post(PATH, { limit: 5 })).status).toBe(403);
    expect((await callerOf(api, 'not-a-token').post(PATH, { limit: 5 })).status).toBe(401);
    const carParks = await staffWithRole(api, s.admin, await roleWith(s.admin, (p) => p === 'carpark:list'));
    const res = await carParks.post(PATH, { limit: 50 });
    expect(res.status).toBe(200);
    expect((res.body.data as Row[]).every((r) => r.houseType === 2)).toBe(true);
    // The declaration says how the permission is checked.
    const spec = (await callerOf(api, '').get('/openapi.json')).body;
    expect(spec.paths[PATH].post.description ?? spec.paths[PATH].post.summary).toMatch(/unit:list/);
  });

  it("when another estate's staff ask, then none of this estate's owner changes are there", async () => {
    const other = await otherTenant(api);
    for (const who of [other.admin, other.staff]) {
      const res = await who.post(PATH, { limit: 50 });
      expect(res.status).toBe(200);
      const rows = res.body.data as Row[];
      expect(rows.map((r) => r.houseId)).not.toContain(unit.id);
      expect(rows.map((r) => r.personId)).not.toContain(s.first.personId);
    }
  });

  it('when the limit is bad, then 400 with a message in the asked language and nothing is written', async () => {
    const before = await rowCounts(api, ['person_house_history', 'message']);
    for (const body of [{ limit: 0 }, { limit: 51 }, { limit: 'five' }, { limit: 2.5 }]) {
      const en = await s.admin.post(PATH, body);
      expect(en.status).toBe(400);
      expect(en.body.msg).toMatch(/rows per page|limit|number/i);
      const zh = await s.admin.post(PATH, body).set('lang', 'zh-CN');
      expect(zh.status).toBe(400);
      expect(zh.body.msg).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(await rowCounts(api, ['person_house_history', 'message'])).toEqual(before);
  });
});
