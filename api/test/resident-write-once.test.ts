// Resident writes are idempotent with a clientId (issue 35, docs/internal-contract.md "Resident
// writes are idempotent"): the chaos run showed a resident app that resends a write whose answer
// was lost (a cut connection, a killed process) storing it twice. The same clientId from the same
// person answers the first write and stores (and pushes) nothing more; another person's equal
// clientId is a write of its own; a write without one is stored each time, as before.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import { rowCounts, signInAll, startTestApi, testEngines, type Session, type TestApi } from './kit';

describe.each(testEngines())('resident writes with a clientId on %s', (engine) => {
  let api: TestApi;
  let people: Record<'resident' | 'other', Session>;
  let house: { houseType: number; houseId: number };
  let otherHouse: { houseType: number; houseId: number };
  const tables = ['complain', 'event_order', 'complain_reply', 'sos_help', 'message'] as const;

  beforeAll(async () => {
    api = await startTestApi(engine);
    people = await signInAll(api, { resident: 'resident1', other: 'resident2' });
    const first = (await people.resident.get('/app/house/list')).body.data[0];
    house = { houseType: first.houseType, houseId: first.houseId };
    const second = (await people.other.get('/app/house/list')).body.data[0];
    otherHouse = { houseType: second.houseType, houseId: second.houseId };
  });
  afterAll(async () => api?.close());

  /** Sends `body` twice; answers both answers and how many rows of each table the pair added. */
  async function twice(who: Session, path: string, body: object) {
    const before = await rowCounts(api, tables);
    const first = await who.post(path, body);
    const again = await who.post(path, body);
    const after = await rowCounts(api, tables);
    const added = Object.fromEntries(tables.map((t) => [t, after[t] - before[t]]));
    return { first, again, added };
  }

  it('when a complaint, a work order, a reply and an SOS call are each sent twice with one clientId, then each is stored once and both answers are the same', async () => {
    const complaint = await twice(people.resident, '/app/complain/save', {
      name: 'Lift',
      note: 'Stuck again',
      ...house,
      clientId: 'c-0001-complaint',
    });
    expect(complaint.first.status).toBe(200);
    expect(complaint.again.body).toEqual(complaint.first.body);
    expect(complaint.added.complain).toBe(1);
    const messagesOfOne = complaint.added.message;
    expect(messagesOfOne).toBeGreaterThan(0);

    const order = await twice(people.resident, '/app/eventOrder/save', {
      name: 'Leak',
      note: 'Ceiling',
      type: 2,
      ...house,
      clientId: 'c-0001-order',
    });
    expect(order.again.body).toEqual(order.first.body);
    expect(order.added.event_order).toBe(1);

    const reply = await twice(people.resident, '/app/complain/reply', {
      id: complaint.first.body.data.complainId,
      content: 'Still stuck',
      clientId: 'c-0001-reply',
    });
    expect(reply.first.status).toBe(200);
    expect(reply.again.body).toEqual(reply.first.body);
    expect(reply.added.complain_reply).toBe(1);

    const sos = await twice(people.resident, '/app/sos/help', { ...house, position: 'Lobby', clientId: 'c-0001-sos' });
    expect(sos.first.status).toBe(200);
    expect(sos.again.body).toEqual(sos.first.body);
    expect(sos.added.sos_help).toBe(1);
  });

  it('when a join by invite code is sent twice with one clientId, then one request is stored and both answers are the same (not 409 already linked)', async () => {
    const me = (await people.resident.get('/auth/current/user')).body.data.accountInfo.personId as number;
    const [unit] = await queryRows<{ code: string }>(
      api.db,
      sql`select invite_code as code from unit where invite_code is not null
            and id not in (select unit_id from person_house where person_id = ${me} and unit_id is not null)
          order by id limit 1`,
    );
    const before = await rowCounts(api, ['person_house']);
    const body = { inviteCode: unit.code, identity: 2, clientId: 'c-0001-join' };
    const first = await people.resident.post('/app/personhouse/join', body);
    const again = await people.resident.post('/app/personhouse/join', body);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await rowCounts(api, ['person_house'])).person_house - before.person_house).toBe(1);
    // Without a clientId a second join of the same house is still refused as already linked.
    const third = await people.resident.post('/app/personhouse/join', { inviteCode: unit.code, identity: 2 });
    expect(third.status).toBe(409);
  });

  it("when a stored join is resent more often than the hour's join limit, then every resend gets its answer and the resident can still join another unit", async () => {
    const me = (await people.other.get('/auth/current/user')).body.data.accountInfo.personId as number;
    const units = await queryRows<{ code: string }>(
      api.db,
      sql`select invite_code as code from unit where invite_code is not null
            and id not in (select unit_id from person_house where unit_id is not null)
            and id not in (select unit_id from person_house where person_id = ${me} and unit_id is not null)
          order by id desc limit 2`,
    );
    expect(units).toHaveLength(2);
    const body = { inviteCode: units[0].code, identity: 2, clientId: 'c-0002-join' };
    const first = await people.other.post('/app/personhouse/join', body);
    expect(first.status).toBe(200);
    // More resends than the 20 join requests an hour (an app retrying through a long outage).
    for (let i = 0; i < 24; i++) {
      const again = await people.other.post('/app/personhouse/join', body);
      expect({ i, status: again.status, body: again.body }).toEqual({ i, status: 200, body: first.body });
    }
    const next = await people.other.post('/app/personhouse/join', {
      inviteCode: units[1].code,
      identity: 2,
      clientId: 'c-0003-join',
    });
    expect(next.status).toBe(200);
  });

  it('when another person sends the same clientId, or a write comes without one, then it is a write of its own', async () => {
    const mine = await people.resident.post('/app/sos/help', { ...house, clientId: 'c-shared-key' });
    const theirs = await people.other.post('/app/sos/help', { ...otherHouse, clientId: 'c-shared-key' });
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.sosHelpId).not.toBe(mine.body.data.sosHelpId);

    const plain = await twice(people.resident, '/app/complain/save', { name: 'Noise', note: 'Upstairs', ...house });
    expect(plain.added.complain).toBe(2);
    expect(plain.again.body.data.complainId).not.toBe(plain.first.body.data.complainId);
  });

  it('when a clientId is not 8-64 letters, digits, - or _, then the call is refused with a message and nothing is stored', async () => {
    const before = await rowCounts(api, tables);
    const res = await people.resident.post('/app/complain/save', { name: 'X', note: 'Y', ...house, clientId: 'a b' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBeTruthy();
    expect(await rowCounts(api, tables)).toEqual(before);
  });
});
