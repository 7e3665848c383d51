// The resident's side of work orders over the one kind table (issue 15): an event work order is
// reported, replied on and rated by the same code as a complaint, under its own names and numbers.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import { startTestApi, testEngines, type TestApi } from './kit';

describe.each(testEngines())('resident work orders on %s', (engine) => {
  let api: TestApi;
  let admin: string;
  let resident: string;
  let adminPersonId: number;
  let house: { houseType: number; houseId: number };

  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  const post = (token: string, path: string, body: object = {}) => api.http.post(path).set(as(token)).send(body);

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, resident] = await Promise.all([api.login('admin', 'admin123'), api.login('resident1', 'resident123')]);
    adminPersonId = (await api.http.get('/auth/current/user').set(as(admin))).body.data.accountInfo.personId;
    const houses = await api.http.get('/app/house/list').set(as(resident));
    house = { houseType: houses.body.data[0].houseType, houseId: houses.body.data[0].houseId };
  });
  afterAll(async () => api?.close());

  it('when a resident reports, replies on and rates a work order, then it carries its type, E code, message 11 to its handler and the ratings once', async () => {
    const saved = await post(resident, '/app/eventOrder/save', {
      name: 'Gate stuck',
      note: 'North gate',
      type: 2,
      ...house,
    });
    expect(saved.status).toBe(200);
    const id = saved.body.data.eventOrderId as number;
    expect(saved.body.data.eventCode).toMatch(/^E\d{8}\d{4,}$/);

    const dealt = await post(admin, '/eventOrder/updateDeal', { eventOrderId: id, dealNote: 'On it' });
    expect(dealt.body.data).toMatchObject({ eventStatus: 2, type: 2, eventCode: saved.body.data.eventCode });

    // Too early to rate: not completed.
    const early = { id, serviceEfficiency: 3, serviceAttitude: 3, serviceProcess: 3 };
    expect((await post(resident, '/app/eventOrder/rate', early)).status).toBe(409);

    const reply = await post(resident, '/app/eventOrder/reply', { id, content: 'Still stuck' });
    expect(reply.status).toBe(200);
    const replyId = reply.body.data.replyId as number;
    const stored = await queryRows<{ event_order_id: number; company_type: number | null }>(
      api.db,
      sql`select event_order_id, company_type from event_reply where id = ${replyId}`,
    );
    expect(stored).toEqual([{ event_order_id: id, company_type: null }]);
    // The one dealing with it is told (message 11 on channel 7), nobody else.
    const told = await queryRows<{ person_id: number; message_type: number }>(
      api.db,
      sql`select person_id, message_type from message where data_id = ${id} and message_type = 11`,
    );
    expect(told).toEqual([{ person_id: adminPersonId, message_type: 11 }]);

    await post(admin, '/eventOrder/updateComplete', { eventOrderId: id, completeNote: 'Fixed' });
    const rating = { id, serviceEfficiency: 3, serviceAttitude: 1, serviceProcess: 2, serviceComment: 'Slow' };
    const rated = await post(resident, '/app/eventOrder/rate', rating);
    expect(rated.status).toBe(200);
    expect(rated.body.data).toEqual({ id, serviceScore: 2 });
    expect((await post(resident, '/app/eventOrder/rate', rating)).status).toBe(409);
    const detail = await post(admin, `/eventOrder/query/id/${id}`);
    expect(detail.body.data).toMatchObject({
      serviceEfficiency: 3,
      serviceAttitude: 1,
      serviceProcess: 2,
      serviceComment: 'Slow',
      replyCount: 1,
    });
  });
});
