// Complaints and event work orders, console side (issue 7): state machine, the concurrent-deal
// race, permissions per call, tenant isolation, and notification + push written with the change.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import { openSocket } from './realtime-test-client';
import { startTestApi, testEngines, type TestApi } from './start-test-api';

describe.each(testEngines())('complaints and work orders on %s', (engine) => {
  let api: TestApi;
  let admin: string;
  let staff: string;
  let admin2: string;
  let resident: string;
  let residentPersonId: number;
  let adminPersonId: number;
  let house: { houseType: number; houseId: number };

  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  const post = (token: string, path: string, body: object = {}) => api.http.post(path).set(as(token)).send(body);

  async function personOf(token: string): Promise<number> {
    const me = await api.http.get('/auth/current/user').set(as(token));
    return me.body.data.accountInfo.personId as number;
  }

  async function fileComplaint(name = 'Water leaking from the ceiling'): Promise<number> {
    const res = await post(resident, '/app/complain/save', { name, note: 'Since last night', ...house });
    expect(res.status).toBe(200);
    return res.body.data.complainId as number;
  }

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, staff, admin2, resident] = await Promise.all([
      api.login('admin', 'admin123'),
      api.login('staff', 'staff123'),
      api.login('admin2', 'admin123'),
      api.login('resident1', 'resident123'),
    ]);
    residentPersonId = await personOf(resident);
    adminPersonId = await personOf(admin);
    const houses = await api.http.get('/app/house/list').set(as(resident));
    house = { houseType: houses.body.data[0].houseType, houseId: houses.body.data[0].houseId };
  });
  afterAll(async () => api?.close());

  it('when a resident files a complaint, then it heads the open list with its unit display and the untreated total rises', async () => {
    const before = (await post(admin, '/complain/query/getComplainStatusTotalVo')).body.data;
    const id = await fileComplaint('Lift makes a loud noise');
    const after = (await post(admin, '/complain/query/getComplainStatusTotalVo')).body.data;
    expect(after.untreated).toBe(before.untreated + 1);

    const list = await post(admin, '/complain/query/list', { page: 1, limit: 10, complainStatus: 1 });
    expect(list.status).toBe(200);
    const row = list.body.data.list[0];
    expect(row.complainId).toBe(id);
    expect(row.complainStatus).toBe(1);
    expect(row.name).toBe('Lift makes a loud noise');
    expect(row.reportPersonId).toBe(residentPersonId);
    expect(row.personType).toBe(house.houseType);
    expect(row.unitName ?? row.carParkCode ?? row.shopCode).toBeTruthy();
    expect(list.body.data.total).toBe(after.untreated);

    const byKeyword = await post(admin, '/complain/query/list', { keyword: 'loud noise' });
    expect(byKeyword.body.data.list.map((r: { complainId: number }) => r.complainId)).toContain(id);
    const byCode = await post(admin, '/complain/query/list', { keyword: row.complainCode });
    expect(byCode.body.data.list).toHaveLength(1);
    const future = await post(admin, '/complain/query/list', { startTime: '2999-01-01', endTime: '2999-01-02' });
    expect(future.body.data).toMatchObject({ list: [], total: 0 });
    // Days are the estate's (Asia/Hong_Kong for the demo estate), not UTC's.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Hong_Kong' }).format(new Date());
    const todays = await post(admin, '/complain/query/list', { startTime: today, endTime: today, limit: 100 });
    expect(todays.body.data.list.map((r: { complainId: number }) => r.complainId)).toContain(id);

    const dashboard = await post(admin, '/complain/query/listByDashboard', { limit: 5 });
    expect(dashboard.body.data[0].complainId).toBe(id);
  });

  it('when staff deal with and complete a complaint, then it moves 1 → 2 → 3 with who and when, and wrong steps answer 409', async () => {
    const id = await fileComplaint();
    const early = await post(admin, '/complain/updateComplete', { complainId: id, completeNote: 'done' });
    expect(early.status).toBe(409);
    expect(early.body.msg).toBe('Only an item in processing can be completed');

    const dealt = await post(admin, '/complain/updateDeal', { complainId: id, dealNote: 'Plumber sent', dealImg: '' });
    expect(dealt.status).toBe(200);
    expect(dealt.body.data).toMatchObject({ complainStatus: 2, dealNote: 'Plumber sent', personDealId: adminPersonId });
    expect(dealt.body.data.dealTime).toBeTruthy();

    const again = await post(admin, '/complain/updateDeal', { complainId: id, dealNote: 'again' });
    expect(again.status).toBe(409);

    const done = await post(admin, '/complain/updateComplete', { complainId: id, completeNote: 'Pipe replaced' });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({
      complainStatus: 3,
      completeNote: 'Pipe replaced',
      personCompleteId: adminPersonId,
    });

    const rated = await post(resident, '/app/complain/rate', {
      id,
      serviceEfficiency: 3,
      serviceAttitude: 2,
      serviceProcess: 3,
      serviceComment: 'Quick',
    });
    expect(rated.status).toBe(200);
    const detail = await post(admin, `/complain/query/id/${id}`);
    expect(detail.body.data).toMatchObject({
      complainStatus: 3,
      serviceEfficiency: 3,
      serviceAttitude: 2,
      serviceProcess: 3,
      serviceComment: 'Quick',
    });
  });

  it('when two staff deal with the same complaint at once, then exactly one wins and the other gets 409', async () => {
    const id = await fileComplaint('Race');
    const results = await Promise.all([
      post(admin, '/complain/updateDeal', { complainId: id, dealNote: 'first' }),
      post(admin, '/complain/updateDeal', { complainId: id, dealNote: 'second' }),
      post(admin, '/complain/updateDeal', { complainId: id, dealNote: 'third' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const detail = await post(admin, `/complain/query/id/${id}`);
    const winner = results.find((r) => r.status === 200)!;
    expect(detail.body.data.dealNote).toBe(winner.body.data.dealNote);
  });

  it('when a role lacks a permission, then that call answers 403 and the others still work', async () => {
    const id = await fileComplaint('Permission check');
    // The demo staff role may view and reply to complaints but not deal with them.
    expect((await post(staff, `/complain/query/id/${id}`)).status).toBe(200);
    const deal = await post(staff, '/complain/updateDeal', { complainId: id, dealNote: 'x' });
    expect(deal.status).toBe(403);
    expect((await post(resident, '/complain/query/list')).status).toBe(403);
    expect((await post(resident, `/complain/query/id/${id}`)).status).toBe(403);
    const someoneElse = await post(admin, '/complain/updateDeal', {
      complainId: id,
      dealNote: 'x',
      personDealId: residentPersonId,
    });
    expect(someoneElse.status).toBe(400);
  });

  it("when another estate's administrator asks, then they see none of this estate's complaints", async () => {
    const id = await fileComplaint('Tenant isolation');
    const list = await post(admin2, '/complain/query/list', { limit: 100 });
    expect(list.status).toBe(200);
    expect(list.body.data.list.map((r: { complainId: number }) => r.complainId)).not.toContain(id);
    expect((await post(admin2, `/complain/query/id/${id}`)).status).toBe(404);
    expect((await post(admin2, '/complain/updateDeal', { complainId: id, dealNote: 'x' })).status).toBe(404);
    expect((await post(admin2, '/complainReply/save', { complainId: id, content: 'x' })).status).toBe(404);
  });

  it('when a resident files, then staff get message 50 and a channelType 8 push; a staff reply reaches the resident as message 13', async () => {
    const staffSocket = await openSocket(api.url, admin, adminPersonId);
    const residentSocket = await openSocket(api.url, resident, residentPersonId);
    try {
      const unread = async (token: string, type: number) =>
        (await post(token, '/base/message/unRead', { messageTypeList: [type] })).body.data.total as number;
      const before = await unread(admin, 50);
      const id = await fileComplaint('Push check');
      const pushed = await staffSocket.waitFor((m) => m.channelType === 8 && m.dataId === id);
      expect(pushed.messageType).toBe(50);
      expect(await unread(admin, 50)).toBe(before + 1);

      const replyBefore = await unread(resident, 13);
      const reply = await post(admin, '/complainReply/save', { complainId: id, content: 'We are on it' });
      expect(reply.status).toBe(200);
      expect(reply.body.data).toMatchObject({ content: 'We are on it', personId: adminPersonId, companyType: 2 });
      await residentSocket.waitFor((m) => m.channelType === 8 && m.dataId === id && m.messageType === 13);
      expect(await unread(resident, 13)).toBe(replyBefore + 1);
      const replies = await post(admin, `/complainReply/query/id/${id}`, {});
      expect(replies.body.data.total).toBe(1);
      expect((await post(admin, `/complain/query/id/${id}`)).body.data.replyCount).toBe(1);

      await post(admin, '/complain/updateDeal', { complainId: id, dealNote: 'on the way' });
      const status = await residentSocket.waitFor((m) => m.channelType === 8 && m.dataId === id && m.status === 2);
      expect(status.messageType).toBeUndefined();
    } finally {
      await staffSocket.close();
      await residentSocket.close();
    }
  });

  it('when a change fails, then neither the reply nor its message is written', async () => {
    const id = await fileComplaint('Atomic');
    const count = async () => (await post(admin, `/complainReply/query/id/${id}`, {})).body.data.total as number;
    const bad = await post(admin, '/complainReply/save', { complainId: id, content: '' });
    expect(bad.status).toBe(400);
    const tooMany = await post(admin, '/complainReply/save', {
      complainId: id,
      content: 'x',
      img: Array(30).fill('/a.png').join(';'),
    });
    expect(tooMany.status).toBe(400);
    expect(await count()).toBe(0);
  });

  it('when work orders are filtered by type and status, then only matching ones come back and totals add up', async () => {
    const saved = await post(resident, '/app/eventOrder/save', {
      name: 'Broken door lock',
      note: 'Front door',
      type: 3,
      ...house,
    });
    expect(saved.status).toBe(200);
    const id = saved.body.data.eventOrderId as number;
    const byType = await post(admin, '/eventOrder/query/list', { type: 3, eventStatus: 1, limit: 100 });
    expect(byType.body.data.list.map((r: { eventOrderId: number }) => r.eventOrderId)).toContain(id);
    expect(
      byType.body.data.list.every((r: { type: number; eventStatus: number }) => r.type === 3 && r.eventStatus === 1),
    ).toBe(true);
    const totals = (await post(admin, '/eventOrder/query/getEventOrderStatusTotalVo')).body.data;
    const all = await post(admin, '/eventOrder/query/list', { limit: 1 });
    expect(totals.untreated + totals.processing + totals.completed).toBe(all.body.data.total);
    // The demo staff role may deal with work orders.
    const dealt = await post(staff, '/eventOrder/updateDeal', { eventOrderId: id, dealNote: 'Locksmith booked' });
    expect(dealt.status).toBe(200);
    expect(dealt.body.data.eventStatus).toBe(2);
  });

  it("when staff open the reporter's other houses, then they get that person's houses of this estate only", async () => {
    const assets = await api.http.get(`/base/personhouse/list/${residentPersonId}`).set(as(admin));
    expect(assets.status).toBe(200);
    expect(assets.body.data.length).toBeGreaterThan(0);
    const first = assets.body.data[0];
    expect(first.person.name).toBeTruthy();
    expect([first.unit, first.carpark, first.shop].filter(Boolean)).toHaveLength(1);
    const other = await api.http.get(`/base/personhouse/list/${residentPersonId}`).set(as(admin2));
    expect(other.body.data).toEqual([]);
    expect((await api.http.get(`/base/personhouse/list/${residentPersonId}`).set(as(resident))).status).toBe(403);
  });

  it('when rows are filed, dealt with and completed, then the kept totals equal a count of the rows, also by reporter keyword', async () => {
    const id = await fileComplaint('Totals check');
    await post(admin, '/complain/updateDeal', { complainId: id, dealNote: 'x' });
    await fileComplaint('Totals check two');
    const me = (await post(admin, '/complain/query/getComplainStatusTotalVo')).body.data;
    const counted = await queryRows<{ s: number; n: number }>(
      api.db,
      sql`select complain_status as s, count(*)::int as n from complain c join account a on a.housing_estate_id = c.housing_estate_id
          where a.username = 'admin' group by complain_status`,
    );
    const by = new Map(counted.map((r) => [Number(r.s), r.n]));
    expect(me).toEqual({ untreated: by.get(1) ?? 0, processing: by.get(2) ?? 0, completed: by.get(3) ?? 0 });
    const processing = await post(admin, '/complain/query/list', { complainStatus: 2, limit: 1 });
    expect(processing.body.data.total).toBe(me.processing);

    const reporter = (await post(admin, `/complain/query/id/${id}`)).body.data.reportPersonName as string;
    const byName = await post(admin, '/complain/query/list', { keyword: reporter.slice(1, 6), limit: 100 });
    expect(byName.body.data.list.map((r: { complainId: number }) => r.complainId)).toContain(id);
    expect(byName.body.data.total).toBeGreaterThanOrEqual(2);
  });
});
