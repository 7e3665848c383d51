// A complaint's or work order's answer by id kept in the api process (issue 34, part 11): a second
// read is answered from what was kept, and a read made at once after each kind of write that
// changes the answer — never polled — shows the change: a deal, a completion, a staff reply, a
// resident's reply and rating, the reporter's name, the house's unit name. Another company's staff
// still 404, a role without the view permission 403, a signed-out token 401, though the answer is
// kept. On PostgreSQL, a second api on the same database drops its kept answers through the bus:
// once a write's push reached an upstream it holds, its answer by id shows the write.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callerOf,
  openRealtime,
  signIn,
  signInResident,
  staffWithout,
  startTestApi,
  testEngines,
  type ResidentSession,
  type Session,
  type TestApi,
} from './kit';

/** Answers by id from the kept answers (hit) and from the database (miss), as GET /metrics reports them. */
async function keptCounts(api: TestApi): Promise<{ hit: number; miss: number }> {
  const metric = api.metrics.registry.getSingleMetric('api_kept_by_id_total');
  const { values } = await metric!.get();
  const of = (result: string) => values.find((v) => v.labels.result === result)?.value ?? 0;
  return { hit: of('hit'), miss: of('miss') };
}

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
    const before = await keptCounts(api);
    const answer = await byId(admin, id);
    expect((await keptCounts(api)).hit).toBe(before.hit + 1);
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
    const before = await keptCounts(api);
    const second = await admin.post(`/complain/query/id/${id}`);
    expect(await keptCounts(api)).toEqual({ hit: before.hit + 1, miss: before.miss });
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

describe.runIf(testEngines().includes('postgres'))('answers by id kept by two apis on one PostgreSQL', () => {
  let a: TestApi;
  let b: TestApi;

  beforeAll(async () => {
    a = await startTestApi('postgres');
    // A second api on the same database: its own kept answers, the same NOTIFY bus.
    b = await startTestApi('postgres', { databaseUrl: a.databaseUrl, seed: false });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('when a write is committed on one api, then the other answers it as soon as its push arrived there', async () => {
    const [resident, staffA, staffB] = await Promise.all([
      signInResident(a, 'resident1'),
      signIn(a, 'admin'),
      signIn(b, 'admin'),
    ]);
    const filed = await resident.post('/app/complain/save', { name: 'Two apis', note: 'x', ...resident.house });
    const id = filed.body.data.complainId as number;
    await staffB.post(`/complain/query/id/${id}`);
    const before = await keptCounts(b);
    expect((await staffB.post(`/complain/query/id/${id}`)).body.data.complainStatus).toBe(1);
    expect((await keptCounts(b)).hit).toBe(before.hit + 1);

    // The staff member's upstream is held by b; the deal is made on a.
    const socket = await openRealtime(b, staffB);
    try {
      expect((await staffA.post('/complain/updateDeal', { complainId: id, dealNote: 'From a' })).status).toBe(200);
      await socket.waitFor((m) => m.dataId === id && m.status === 2);
      const after = (await staffB.post(`/complain/query/id/${id}`)).body.data;
      expect(after.complainStatus).toBe(2);
      expect(after.dealNote).toBe('From a');
    } finally {
      await socket.close();
    }

    // A write that pushes nothing (a name changed on a): b's kept answer goes as the bus brings the drop.
    await staffB.post(`/complain/query/id/${id}`);
    await a.db.execute(sql`update person set name = ${'Named on a'} where id = ${resident.personId}`);
    await expect
      .poll(async () => (await staffB.post(`/complain/query/id/${id}`)).body.data.reportPersonName, { timeout: 10_000 })
      .toBe('Named on a');
  });
});
