// The template of a feature's api tests, written for complaints and event work orders (issue 15
// item 8). A new feature copies this file: it fills its kind table and lists its calls; the six
// checks every feature owes stay as they are:
//   1. the happy path            4. another tenant's ids answer 404 and change nothing
//   2. its state machine         5. the notification and push written with the change
//   3. permission per call       6. bad input answered 400, translated, with nothing written
// Everything goes through HTTP and the realtime socket as clients do, on the kit (./kit).
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import {
  callerOf,
  declaredCalls,
  makeCall,
  openRealtime,
  otherTenant,
  rowCounts,
  signIn,
  signInResident,
  staffWithout,
  startTestApi,
  testEngines,
  type FeatureCall,
  type ResidentSession,
  type Session,
  type TestApi,
} from './kit';

/** What differs between the two shapes of one feature (DESIGN "a variant is data, not branches"). */
interface Kind {
  name: string;
  /** Staff paths start with `/${base}`, replies with `/${replyBase}`, resident paths with `/app/${base}`. */
  base: string;
  replyBase: string;
  totals: string;
  permission: string;
  idField: string;
  statusField: string;
  /** Extra fields a resident's report needs. */
  report: object;
  table: string;
  replyTable: string;
  channel: number;
  newMessage: number;
  replyMessage: number;
}

const KINDS: Kind[] = [
  {
    name: 'complaints',
    base: 'complain',
    replyBase: 'complainReply',
    totals: 'getComplainStatusTotalVo',
    permission: 'complain',
    idField: 'complainId',
    statusField: 'complainStatus',
    report: {},
    table: 'complain',
    replyTable: 'complain_reply',
    channel: 8,
    newMessage: 50,
    replyMessage: 13,
  },
  {
    name: 'event work orders',
    base: 'eventOrder',
    replyBase: 'eventReply',
    totals: 'getEventOrderStatusTotalVo',
    permission: 'eventorder',
    idField: 'eventOrderId',
    statusField: 'eventStatus',
    report: { type: 2 },
    table: 'event_order',
    replyTable: 'event_reply',
    channel: 7,
    newMessage: 49,
    replyMessage: 11,
  },
];

/** The staff calls of the feature: each is checked for its permission and its tenant scope. */
const staffCalls = (k: Kind): (FeatureCall & { record?: true })[] => [
  { method: 'post', path: `/${k.base}/query/list`, body: () => ({ page: 1, limit: 100 }) },
  { method: 'post', path: `/${k.base}/query/listByDashboard`, body: () => ({ limit: 100 }) },
  { method: 'post', path: `/${k.base}/query/${k.totals}` },
  { method: 'post', path: `/${k.base}/query/id/{id}`, record: true },
  { method: 'post', path: `/${k.base}/updateDeal`, body: (id) => ({ [k.idField]: id, dealNote: 'x' }), record: true },
  {
    method: 'post',
    path: `/${k.base}/updateComplete`,
    body: (id) => ({ [k.idField]: id, completeNote: 'x' }),
    record: true,
  },
  { method: 'post', path: `/${k.replyBase}/query/id/{id}`, record: true },
  { method: 'post', path: `/${k.replyBase}/save`, body: (id) => ({ [k.idField]: id, content: 'x' }), record: true },
];

const cases = testEngines().flatMap((engine) => KINDS.map((kind) => ({ engine, kind })));

describe.each(cases)('$kind.name on $engine', ({ engine, kind: k }) => {
  let api: TestApi;
  let admin: Session;
  let resident: ResidentSession;
  let other: { admin: Session; staff: Session };
  const tables = () => [k.table, k.replyTable, 'message'] as const;

  const report = async (name = 'Water leaking from the ceiling'): Promise<number> => {
    const res = await resident.post(`/app/${k.base}/save`, {
      name,
      note: 'Since last night',
      ...resident.house,
      ...k.report,
    });
    expect(res.status).toBe(200);
    return res.body.data[k.idField] as number;
  };
  const detail = async (id: number) => (await admin.post(`/${k.base}/query/id/${id}`)).body.data;
  const unread = async (who: Session, type: number) =>
    (await who.post('/base/message/unRead', { messageTypeList: [type] })).body.data.total as number;

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, resident, other] = await Promise.all([signIn(api, 'admin'), signInResident(api), otherTenant(api)]);
  });
  afterAll(async () => api?.close());

  it('when a resident reports and staff deal with it, reply and complete it, then it moves 1 → 2 → 3 in lists and totals and the resident rates it', async () => {
    const before = (await admin.post(`/${k.base}/query/${k.totals}`)).body.data;
    const id = await report('Lift makes a loud noise');
    const list = await admin.post(`/${k.base}/query/list`, { page: 1, limit: 10, [k.statusField]: 1 });
    expect(list.body.data.list[0]).toMatchObject({
      [k.idField]: id,
      [k.statusField]: 1,
      name: 'Lift makes a loud noise',
    });
    expect((await admin.post(`/${k.base}/query/${k.totals}`)).body.data.untreated).toBe(before.untreated + 1);

    const dealt = await admin.post(`/${k.base}/updateDeal`, { [k.idField]: id, dealNote: 'Plumber sent' });
    expect(dealt.status).toBe(200);
    expect(dealt.body.data).toMatchObject({
      [k.statusField]: 2,
      dealNote: 'Plumber sent',
      personDealId: admin.personId,
    });
    expect(dealt.body.data.dealTime).toBeTruthy();
    const reply = await admin.post(`/${k.replyBase}/save`, { [k.idField]: id, content: 'On the way' });
    expect(reply.status).toBe(200);
    const done = await admin.post(`/${k.base}/updateComplete`, { [k.idField]: id, completeNote: 'Pipe replaced' });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({
      [k.statusField]: 3,
      completeNote: 'Pipe replaced',
      personCompleteId: admin.personId,
    });

    const rated = await resident.post(`/app/${k.base}/rate`, {
      id,
      serviceEfficiency: 3,
      serviceAttitude: 2,
      serviceProcess: 3,
      serviceComment: 'Quick',
    });
    expect(rated.status).toBe(200);
    expect(await detail(id)).toMatchObject({
      [k.statusField]: 3,
      serviceEfficiency: 3,
      serviceAttitude: 2,
      serviceProcess: 3,
      serviceComment: 'Quick',
      replyCount: 1,
    });
    const after = (await admin.post(`/${k.base}/query/${k.totals}`)).body.data;
    expect(after.completed).toBe(before.completed + 1);
  });

  it('when steps come out of order, then staff get 409 with the reason and the resident may reply in every state but rate only once it is completed', async () => {
    const id = await report('State machine');
    const step = (path: string, note: object) => admin.post(`/${k.base}/${path}`, { [k.idField]: id, ...note });
    const residentMay = async (expected: { reply: number; rate: number }) => {
      const reply = await resident.post(`/app/${k.base}/reply`, { id, content: 'Any news?' });
      const rate = await resident.post(`/app/${k.base}/rate`, {
        id,
        serviceEfficiency: 2,
        serviceAttitude: 2,
        serviceProcess: 2,
      });
      expect({ reply: reply.status, rate: rate.status }).toEqual(expected);
    };

    await residentMay({ reply: 200, rate: 409 });
    const early = await step('updateComplete', { completeNote: 'done' });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 409, msg: 'Only an item in processing can be completed' });

    expect((await step('updateDeal', { dealNote: 'first' })).status).toBe(200);
    await residentMay({ reply: 200, rate: 409 });
    const again = await step('updateDeal', { dealNote: 'second' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe(409);

    expect((await step('updateComplete', { completeNote: 'done' })).status).toBe(200);
    const twice = await step('updateComplete', { completeNote: 'done again' });
    expect(twice.status).toBe(409);
    await residentMay({ reply: 200, rate: 200 });
    await residentMay({ reply: 200, rate: 409 });
    expect(await detail(id)).toMatchObject({
      [k.statusField]: 3,
      dealNote: 'first',
      completeNote: 'done',
      replyCount: 4,
    });
  });

  it('when a caller lacks the permission a call declares, then that call answers 403 (a resident 403, no token 401) and nothing changes', async () => {
    const id = await report('Permission check');
    const calls = await declaredCalls(api, staffCalls(k));
    const withoutPermission = new Map<string, Session>();
    for (const call of calls) {
      const what = `${call.method.toUpperCase()} ${call.path} (${call.permission})`;
      expect(call.permission.startsWith(`${k.permission}:`), what).toBe(true);
      if (!withoutPermission.has(call.permission))
        withoutPermission.set(call.permission, await staffWithout(api, admin, call.permission));
      const lacking = withoutPermission.get(call.permission)!;
      expect((await makeCall(lacking, call, id)).status, `staff lacking it: ${what}`).toBe(403);
      expect((await makeCall(resident, call, id)).status, `resident: ${what}`).toBe(403);
      expect((await makeCall(callerOf(api, 'no-such-token'), call, id)).status, `no token: ${what}`).toBe(401);
    }
    expect(await detail(id)).toMatchObject({ [k.statusField]: 1, replyCount: 0 });
  });

  it("when another estate's staff use this estate's ids, then every call answers 404 or leaves it out, and no row changes", async () => {
    const id = await report('Tenant isolation');
    const rows = await rowCounts(api, tables());
    for (const call of staffCalls(k)) {
      const res = await makeCall(other.staff, call, id);
      const what = `${call.method.toUpperCase()} ${call.path}`;
      if (call.record) expect(res.status, what).toBe(404);
      else expect(JSON.stringify(res.body.data), what).not.toContain('Tenant isolation');
    }
    expect((await other.staff.post(`/${k.base}/query/list`, { keyword: 'Tenant isolation' })).body.data.total).toBe(0);
    expect(await rowCounts(api, tables())).toEqual(rows);
    expect(await detail(id)).toMatchObject({ [k.statusField]: 1, replyCount: 0 });
  });

  it('when a resident reports and staff reply, then exactly the staff with the list permission are told and pushed, and the reporter hears of the reply', async () => {
    const blind = await staffWithout(api, admin, `${k.permission}:list`);
    const listeners = { admin, blind, stranger: other.staff, resident };
    const sockets = Object.fromEntries(
      await Promise.all(Object.entries(listeners).map(async ([who, s]) => [who, await openRealtime(api, s)] as const)),
    );
    try {
      const before = { admin: await unread(admin, k.newMessage), blind: await unread(blind, k.newMessage) };
      const stranger = await unread(other.staff, k.newMessage);
      const id = await report('Push check');
      const pushed = await sockets.admin.waitFor((m) => m.channelType === k.channel && m.dataId === id);
      expect(pushed.messageType).toBe(k.newMessage);
      expect(await unread(admin, k.newMessage)).toBe(before.admin + 1);
      expect(await unread(blind, k.newMessage)).toBe(before.blind);
      expect(await unread(other.staff, k.newMessage)).toBe(stranger);

      const replyBefore = await unread(resident, k.replyMessage);
      expect((await admin.post(`/${k.replyBase}/save`, { [k.idField]: id, content: 'We are on it' })).status).toBe(200);
      await sockets.resident.waitFor(
        (m) => m.channelType === k.channel && m.dataId === id && m.messageType === k.replyMessage,
      );
      expect(await unread(resident, k.replyMessage)).toBe(replyBefore + 1);

      // Every push is out by now (the resident's came after the report's): nobody else heard.
      const heard = (who: string) =>
        sockets[who].messages.filter((m) => m.channelType === k.channel && m.dataId === id);
      expect(heard('admin')).toHaveLength(1);
      expect(heard('blind')).toEqual([]);
      expect(heard('stranger')).toEqual([]);
    } finally {
      await Promise.all(Object.values(sockets).map((s) => s.close()));
    }
  });

  it('when input is bad, then the call answers 400 with a message in the asked language and writes nothing', async () => {
    const id = await report('Bad input');
    const rows = await rowCounts(api, tables());
    const bad: [Session, string, object][] = [
      [resident, `/app/${k.base}/save`, { name: '', note: 'x', ...resident.house, ...k.report }],
      [resident, `/app/${k.base}/reply`, { id, content: '' }],
      [resident, `/app/${k.base}/rate`, { id, serviceEfficiency: 9, serviceAttitude: 1, serviceProcess: 1 }],
      [admin, `/${k.base}/updateDeal`, { [k.idField]: id, dealNote: '' }],
      [admin, `/${k.base}/updateComplete`, { [k.idField]: 'abc', completeNote: 'x' }],
      [admin, `/${k.replyBase}/save`, { [k.idField]: id, content: '' }],
      [admin, `/${k.replyBase}/save`, { [k.idField]: id, content: 'x', img: Array(30).fill('/a.png').join(';') }],
      [admin, `/${k.base}/query/id/abc`, {}],
      [admin, `/${k.base}/query/list`, { page: 'first' }],
    ];
    for (const [who, path, body] of bad) {
      const res = await who.post(path, body).set('lang', 'zh-CN');
      expect(res.status, path).toBe(400);
      expect(res.body.code, path).toBe(400);
      expect(res.body.msg, path).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(await rowCounts(api, tables())).toEqual(rows);
    expect(await detail(id)).toMatchObject({ [k.statusField]: 1, replyCount: 0 });
  });
});
