// Joining a house by invite code (issue 14 item 6): every join is a request that the house's
// owner or the estate's staff review first — also across companies —, codes are long, random
// and different on every install, and wrong codes are limited per account.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import { JOIN_LIMITS } from '../src/modules/person/resident-houses.service';
import { signInAll, startTestApi, testEngines, type Session, type TestApi } from './kit';

describe.each(testEngines())('joining by invite code on %s', (engine) => {
  let api: TestApi;
  let people: Record<string, Session>;
  const post = (who: string, path: string, body: object = {}, lang = 'en') =>
    people[who].post(path, body).set('lang', lang);
  const houses = async (who: string) =>
    ((await people[who].get('/app/house/list')).body.data as { houseType: number; houseId: number }[]).map(
      (h) => `${h.houseType}:${h.houseId}`,
    );
  const unread = async (who: string, type: number) =>
    (await post(who, '/base/message/unRead', { messageTypeList: [type] })).body.data.total as number;

  beforeAll(async () => {
    api = await startTestApi(engine);
    people = await signInAll(api, {
      admin: 'admin',
      admin2: 'admin2',
      staff: 'staff',
      owner: 'resident1',
      tenant: 'resident2',
      guesser: 'resident3',
      shopOwner: 'resident4',
      other: 'resident5',
    });
  });
  afterAll(async () => api?.close());

  it("when a resident uses another company's parking-space code, then it is only a pending request and no complaint, work order or SOS can be filed there until that estate approves", async () => {
    const [space] = await queryRows<{ id: number; invite_code: string; housing_estate_id: number }>(
      api.db,
      sql`select cs.id, cs.invite_code, cs.housing_estate_id from car_space cs
          join housing_estate e on e.id = cs.housing_estate_id where e.name = 'Green Valley Court' order by cs.id limit 1`,
    );
    const before = await unread('admin2', 28);
    const joined = await post('owner', '/app/personhouse/join', { inviteCode: space.invite_code, identity: 2 });
    expect(joined.status).toBe(200);
    expect(joined.body.data).toMatchObject({ status: 1, houseType: 2, houseId: space.id });
    expect(joined.body.msg).toMatch(/review/i);
    // The staff of that estate are told, as before.
    expect(await unread('admin2', 28)).toBe(before + 1);

    const house = { houseType: 2, houseId: space.id };
    expect(await houses('owner')).not.toContain(`2:${space.id}`);
    const complaint = await post('owner', '/app/complain/save', { name: 'Noise', note: 'Loud', ...house });
    expect(complaint.status).toBe(403);
    expect(complaint.body.msg).toBeTruthy();
    expect(
      (await post('owner', '/app/eventOrder/save', { name: 'Leak', note: 'Drip', type: 1, ...house })).status,
    ).toBe(403);
    expect((await post('owner', '/app/sos/help', house)).status).toBe(403);
    const [{ n }] = await queryRows<{ n: number }>(
      api.db,
      sql`select count(*)::int as n from complain where report_person_id = ${people.owner.personId} and housing_estate_id = ${space.housing_estate_id}`,
    );
    expect(n).toBe(0);

    // Staff of the resident's own company cannot decide it; neither can the resident.
    const id = joined.body.data.personHouseId as number;
    expect((await post('admin', '/base/personhouse/review', { personHouseId: id, status: 2 })).status).toBe(404);
    expect((await post('owner', '/base/personhouse/review', { personHouseId: id, status: 2 })).status).toBe(404);
    // That estate's administrator approves: now the space is the resident's.
    const approved = await post('admin2', '/base/personhouse/review', { personHouseId: id, status: 2 });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toEqual({ personHouseId: id, status: 2 });
    expect(await houses('owner')).toContain(`2:${space.id}`);
    const filed = await post('owner', '/app/complain/save', { name: 'Noise', note: 'Loud', ...house });
    expect(filed.status).toBe(200);
    // A decided request is not decided again.
    expect((await post('admin2', '/base/personhouse/review', { personHouseId: id, status: 3 })).status).toBe(404);
  });

  it("when a relative asks to join a unit, then that unit's owner may decide, another resident may not, and a refused request gives nothing", async () => {
    const [unit] = await queryRows<{ id: number; invite_code: string }>(
      api.db,
      sql`select u.id, u.invite_code from unit u join person_house ph on ph.unit_id = u.id
          where ph.person_id = ${people.owner.personId} and ph.identity = 1 and ph.status = 2 order by u.id limit 1`,
    );
    // Typed in lower case with dashes: the same code.
    const typed = unit.invite_code.toLowerCase().replace(/(.{5})/g, '$1-');
    const asked = await post('shopOwner', '/app/personhouse/join', { inviteCode: typed, identity: 3 });
    expect(asked.status).toBe(200);
    const id = asked.body.data.personHouseId as number;
    expect((await post('tenant', '/base/personhouse/review', { personHouseId: id, status: 2 })).status).toBe(404);
    expect((await post('owner', '/base/personhouse/review', { personHouseId: id, status: 3 })).status).toBe(200);
    expect(await houses('shopOwner')).not.toContain(`1:${unit.id}`);
    expect(
      (await post('shopOwner', '/app/complain/save', { name: 'x', note: 'y', houseType: 1, houseId: unit.id })).status,
    ).toBe(403);

    // A claim to be the owner is for the management office, not for the current owner.
    const claim = await post('other', '/app/personhouse/join', { inviteCode: unit.invite_code, identity: 1 });
    expect(claim.status).toBe(200);
    const claimId = claim.body.data.personHouseId as number;
    expect((await post('owner', '/base/personhouse/review', { personHouseId: claimId, status: 2 })).status).toBe(404);
    // The estate's staff with unit:list decide it.
    expect((await post('staff', '/base/personhouse/review', { personHouseId: claimId, status: 3 })).status).toBe(200);
  });

  it('when one account floods wrong codes, then exactly the allowed number is answered 400 and the rest 429 with a translated message; other accounts are unaffected', async () => {
    const flood = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post('guesser', '/app/personhouse/join', { inviteCode: `WRONG${i}CODE`, identity: 2 }),
      ),
    );
    const statuses = flood.map((r) => r.status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(JOIN_LIMITS.wrongCodes.max);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - JOIN_LIMITS.wrongCodes.max);
    const refused = flood.filter((r) => r.status === 429);
    const wrongCodes = refused.filter((r) => /wrong invite codes/i.test(r.body.msg));
    expect(wrongCodes.length).toBeGreaterThan(0);
    expect(wrongCodes[0].body.msg).toContain(`at most ${JOIN_LIMITS.wrongCodes.max} an hour`);
    for (const r of refused) expect(r.body.data.retryAfterSeconds).toBeGreaterThan(0);
    // Even a right code waits now: the answer must not tell a guess from a hit.
    const [unit] = await queryRows<{ invite_code: string }>(
      api.db,
      sql`select invite_code from unit where housing_estate_id = 1 order by id desc limit 1`,
    );
    const right = await post(
      'guesser',
      '/app/personhouse/join',
      { inviteCode: unit.invite_code, identity: 2 },
      'zh-TW',
    );
    expect(right.status).toBe(429);
    expect(right.body.msg).toMatch(/[\u4e00-\u9fff]/);
    expect(right.body.msg).toContain('每小時最多');
    // Another resident still joins.
    expect((await post('tenant', '/app/personhouse/join', { inviteCode: 'STILL-WRONG', identity: 2 })).status).toBe(
      400,
    );
  });

  it('when two databases are seeded, then their invite codes are long, random and different', async () => {
    const other = await startTestApi(engine, { freshSeed: true }); // seeded on its own: copies of the run's template share their codes
    try {
      const codes = async (t: TestApi) =>
        (
          await queryRows<{ code: string }>(
            t.db,
            sql`select invite_code as code from unit union all select invite_code from car_space
                union all select invite_code from shop`,
          )
        ).map((r) => r.code);
      const mine = await codes(api);
      const theirs = new Set(await codes(other));
      expect(mine.length).toBeGreaterThan(50);
      for (const code of mine) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(new Set(mine).size).toBe(mine.length);
      expect(mine.filter((c) => theirs.has(c))).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
