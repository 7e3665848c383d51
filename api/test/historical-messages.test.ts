// The historical messages screen's call: every message of the caller, read and unread, by type
// and by days of the estate's time zone, paged; another estate's messages never show.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import { signIn, signInResident, startTestApi, testEngines, type Session, type TestApi } from './kit';

describe.each(testEngines())('historical messages on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let before7th: number;
  let on7th: number;
  const list = (body: object) => admin.post('/base/message/list', { limit: 100, ...body });
  const ids = (res: { body: { data: { list: { messageId: number }[] } } }) =>
    res.body.data.list.map((m) => m.messageId);

  beforeAll(async () => {
    api = await startTestApi(engine);
    admin = await signIn(api, 'admin');
    const resident = await signInResident(api, 'resident1');
    // Two complaints: each sends the admin a message 50.
    for (const name of ['First', 'Second'])
      await resident.post('/app/complain/save', {
        name,
        note: 'For the history',
        houseType: resident.house.houseType,
        houseId: resident.house.houseId,
      });
    const [a, b] = await queryRows<{ id: number }>(
      api.db,
      sql`select id from message where person_id = ${admin.personId} and message_type = 50 order by id desc limit 2`,
    );
    [on7th, before7th] = [a.id, b.id];
    // Hong Kong (UTC+8): 23:30 on the 6th and 00:30 on the 7th.
    await api.db.execute(sql`update message set message_time = '2026-11-06T15:30:00Z' where id = ${before7th}`);
    await api.db.execute(sql`update message set message_time = '2026-11-06T16:30:00Z' where id = ${on7th}`);
  });
  afterAll(async () => api?.close());

  it("when a day is chosen, then the messages of that day of the estate's zone are listed", async () => {
    const seventh = await list({ startTime: '2026-11-07', endTime: '2026-11-07' });
    expect(seventh.status).toBe(200);
    expect(ids(seventh)).toEqual([on7th]);
    expect(ids(await list({ startTime: '2026-11-06', endTime: '2026-11-06' }))).toEqual([before7th]);
    expect(ids(await list({ startTime: '2026-11-06', endTime: '2026-11-07', messageTypeList: [50] }))).toEqual([
      on7th,
      before7th,
    ]);
    expect(ids(await list({ startTime: '2026-11-06', endTime: '2026-11-07', messageTypeList: [13] }))).toEqual([]);
  });

  it('when a message is read, then it moves from the unread to the read list and stays in the history', async () => {
    const range = { startTime: '2026-11-06', endTime: '2026-11-07' };
    expect((await admin.post('/base/message/hasRead', { messageId: on7th })).status).toBe(200);
    expect(ids(await list({ ...range, unReadStatus: 0 }))).toEqual([before7th]);
    expect(ids(await list({ ...range, unReadStatus: 1 }))).toEqual([on7th]);
    const all = await list(range);
    expect(all.body.data.list.map((m: { readStatus: number }) => m.readStatus)).toEqual([1, 0]);
    expect(all.body.data.total).toBe(2);
  });

  it("when another estate's administrator asks for the same days, then none of these messages show", async () => {
    const other = await signIn(api, 'admin2');
    const res = await other.post('/base/message/list', { startTime: '2026-11-06', endTime: '2026-11-07', limit: 100 });
    expect(res.status).toBe(200);
    expect(ids(res)).not.toContain(on7th);
    expect(ids(res)).not.toContain(before7th);
  });

  it('when the dates are not dates, then 400 with a message, in the caller language', async () => {
    const res = await admin.post('/base/message/list', { startTime: 'yesterday-ish' }).set('lang', 'zh-CN');
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(/[\u4e00-\u9fff]/);
  });
});
