// A complaint's or work order's answer by id kept in the api process (issue 34, part 11): a second
// read is answered from what was kept, and a read made at once after each kind of write that
// changes the answer — never polled — shows the change: a deal, a completion, a staff reply, a
// resident's reply and rating, the reporter's name, the house's unit name. Another company's staff
// still 404, a role without the view permission 403, a signed-out token 401, though the answer is
// kept. Two apis on one PostgreSQL: kept-two-apis.postgres.test.ts.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callerOf,
  keptCounts,
  signIn,
  signInResident,
  staffWithout,
  startTestApi,
  testEngines,
  type ResidentSession,
  type Session,
  type TestApi,
} from './kit';

describe.each(testEngines())('answers by id kept on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let resident: ResidentSession;

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, resident] = await Promise.all([signIn(api, 'admin'), signInResident(api, 'resident1')]);
  });
  afterAll(async () => api?.close());

  const byId = async (who: Session, id: number) => {
    const res = await who.post(`/complain/query/id/${id}`);
    expect(res.status).toBe(200);
    return res.body.data as Record<string, unknown>;
  };
  /** Reads twice: the second read must be a kept answer's. */
  const keep = async (id: number) => {
    await byId(admin, id);
    const before = await keptCounts(api, 'api_kept_by_id_total');
    const answer = await byId(admin, id);
    expect((await keptCounts(api, 'api_kept_by_id_total')).hit).toBe(before.hit + 1);
    return answer;
  };
  const file = async (name: string) => {
    const res = await resident.post('/app/complain/save', { name, note: 'Kept answers', ...resident.house });
    expect(res.status).toBe(200);
    return res.body.data.complainId as number;
  };

  it('when a record is read again, then it is answered from the kept answer, the same bytes', async () => {
    const id = await file('Read twice');
    const first = await admin.post(`/complain/query/id/${id}`);
    const before = await keptCounts(api, 'api_kept_by_id_total');
    const second = await admin.post(`/complain/query/id/${id}`);
    expect(await keptCounts(api, 'api_kept_by_id_total')).toEqual({ hit: before.hit + 1, miss: before.miss });
    expect(second.text).toBe(first.text);
    // Another language: the same data in its own envelope.
    const zh = await admin.post(`/complain/query/id/${id}`).set('lang', 'zh-CN');
    expect(zh.body.data).toEqual(first.body.data);
    expect(zh.body.msg).not.toBe(first.body.msg);
  });

  it('when the record is dealt with, replied to, completed and rated, then the next read shows each at once', async () => {
    const id = await file('Each write');
    expect((await keep(id)).complainStatus).toBe(1);

    expect((await admin.post('/complain/updateDeal', { complainId: id, dealNote: 'On it' })).status).toBe(200);
    const dealt = await byId(admin, id);
    expect(dealt.complainStatus).toBe(2);
    expect(dealt.dealNote).toBe('On it');

    await keep(id);
    expect((await admin.post('/complainReply/save', { complainId: id, content: 'Staff reply' })).status).toBe(200);
    expect((await byId(admin, id)).replyCount).toBe(1);

    await keep(id);
    expect((await resident.post('/app/complain/reply', { id, content: 'Resident reply' })).status).toBe(200);
    expect((await byId(admin, id)).replyCount).toBe(2);

    await keep(id);
    expect((await admin.post('/complain/updateComplete', { complainId: id, completeNote: 'Done' })).status).toBe(200);
    expect((await byId(admin, id)).complainStatus).toBe(3);

    await keep(id);
    const rated = await resident.post('/app/complain/rate', {
      id,
      serviceEfficiency: 3,
      serviceAttitude: 2,
      serviceProcess: 3,
    });
    expect(rated.status).toBe(200);
    expect((await byId(admin, id)).serviceAttitude).toBe(2);
  });

  it('when a person or a unit the record names changes, then the next read shows the new name', async () => {
    const id = await file('Names');
    const kept = await keep(id);
    await api.db.execute(sql`update person set name = ${'Renamed Reporter'} where id = ${resident.personId}`);
    expect((await byId(admin, id)).reportPersonName).toBe('Renamed Reporter');

    await keep(id);
    const unitId = kept.unitId as number;
    expect(unitId).toBeGreaterThan(0);
    await api.db.execute(sql`update unit set name = ${'Unit Renamed'} where id = ${unitId}`);
    expect((await byId(admin, id)).unitName).toBe('Unit Renamed');
  });

  it("when another company's staff, a role without the view permission or a signed-out token ask, then 404, 403, 401", async () => {
    const id = await file('Not theirs');
    await keep(id);
    const other = await signIn(api, 'admin2');
    const notFound = await other.post(`/complain/query/id/${id}`);
    expect(notFound.status).toBe(404);
    expect(notFound.body.data).toBeNull();

    const noList = await staffWithout(api, admin, 'complain:view');
    expect((await noList.post(`/complain/query/id/${id}`)).status).toBe(403);

    const staff = await signIn(api, 'admin');
    expect((await staff.post(`/complain/query/id/${id}`)).status).toBe(200);
    expect((await staff.post('/auth/signOut')).status).toBe(200);
    expect((await callerOf(api, staff.token).post(`/complain/query/id/${id}`)).status).toBe(401);
    // The kept answer is still there for those who may read it.
    await keep(id);
  });
});
