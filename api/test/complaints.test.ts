// Complaints and event work orders, console side (issue 7): lists, filters and totals, the
// concurrent-deal race, the demo roles' permissions, tenant isolation and the pushes of a deal.
// The state machine and bad input with nothing written are in work-orders.feature.test.ts.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import {
  openRealtime,
  signIn,
  signInResident,
  startTestApi,
  testEngines,
  type House,
  type ResidentSession,
  type Session,
  type TestApi,
} from './kit';

describe.each(testEngines())('complaints and work orders on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let staff: Session;
  let admin2: Session;
  let resident: ResidentSession;
  let house: House;

  async function fileComplaint(name = 'Water leaking from the ceiling'): Promise<number> {
    const res = await resident.post('/app/complain/save', { name, note: 'Since last night', ...house });
    expect(res.status).toBe(200);
    return res.body.data.complainId as number;
  }

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, staff, admin2, resident] = await Promise.all([
      signIn(api, 'admin'),
      signIn(api, 'staff'),
      signIn(api, 'admin2'),
      signInResident(api, 'resident1'),
    ]);
    house = resident.house;
  });
  afterAll(async () => api?.close());

  it('when a resident files a complaint, then it heads the open list with its unit display and the untreated total rises', async () => {
    const before = (await admin.post('/complain/query/getComplainStatusTotalVo')).body.data;
    const id = await fileComplaint('Lift makes a loud noise');
    const after = (await admin.post('/complain/query/getComplainStatusTotalVo')).body.data;
    expect(after.untreated).toBe(before.untreated + 1);

    const list = await admin.post('/complain/query/list', { page: 1, limit: 10, complainStatus: 1 });
    expect(list.status).toBe(200);
    const row = list.body.data.list[0];
    expect(row.complainId).toBe(id);
    expect(row.complainStatus).toBe(1);
    expect(row.name).toBe('Lift makes a loud noise');
    expect(row.reportPersonId).toBe(resident.personId);
    expect(row.personType).toBe(house.houseType);
    expect(row.unitName ?? row.carParkCode ?? row.shopCode).toBeTruthy();
    expect(list.body.data.total).toBe(after.untreated);

    const byKeyword = await admin.post('/complain/query/list', { keyword: 'loud noise' });
    expect(byKeyword.body.data.list.map((r: { complainId: number }) => r.complainId)).toContain(id);
    const byCode = await admin.post('/complain/query/list', { keyword: row.complainCode });
    expect(byCode.body.data.list).toHaveLength(1);
    const future = await admin.post('/complain/query/list', { startTime: '2999-01-01', endTime: '2999-01-02' });
    expect(future.body.data).toMatchObject({ list: [], total: 0 });
    // Days are the estate's (Asia/Hong_Kong for the demo estate), not UTC's.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Hong_Kong' }).format(new Date());
    const todays = await admin.post('/complain/query/list', { startTime: today, endTime: today, limit: 100 });
    expect(todays.body.data.list.map((r: { complainId: number }) => r.complainId)).toContain(id);

    const dashboard = await admin.post('/complain/query/listByDashboard', { limit: 5 });
    expect(dashboard.body.data[0].complainId).toBe(id);
  });

  it('when two staff deal with the same complaint at once, then exactly one wins and the other gets 409', async () => {
    const id = await fileComplaint('Race');
    const results = await Promise.all([
      admin.post('/complain/updateDeal', { complainId: id, dealNote: 'first' }),
      admin.post('/complain/updateDeal', { complainId: id, dealNote: 'second' }),
      admin.post('/complain/updateDeal', { complainId: id, dealNote: 'third' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const detail = await admin.post(`/complain/query/id/${id}`);
    const winner = results.find((r) => r.status === 200)!;
    expect(detail.body.data.dealNote).toBe(winner.body.data.dealNote);
  });

  it('when a role lacks a permission, then that call answers 403 and the others still work', async () => {
    const id = await fileComplaint('Permission check');
    // The demo staff role may view and reply to complaints but not deal with them.
    expect((await staff.post(`/complain/query/id/${id}`)).status).toBe(200);
    const deal = await staff.post('/complain/updateDeal', { complainId: id, dealNote: 'x' });
    expect(deal.status).toBe(403);
    expect((await resident.post('/complain/query/list')).status).toBe(403);
    expect((await resident.post(`/complain/query/id/${id}`)).status).toBe(403);
    const someoneElse = await admin.post('/complain/updateDeal', {
      complainId: id,
      dealNote: 'x',
      personDealId: resident.personId,
    });
    expect(someoneElse.status).toBe(400);
  });

  it("when another estate's administrator asks, then they see none of this estate's complaints", async () => {
    const id = await fileComplaint('Tenant isolation');
    const list = await admin2.post('/complain/query/list', { limit: 100 });
    expect(list.status).toBe(200);
    expect(list.body.data.list.map((r: { complainId: number }) => r.complainId)).not.toContain(id);
    expect((await admin2.post(`/complain/query/id/${id}`)).status).toBe(404);
    expect((await admin2.post('/complain/updateDeal', { complainId: id, dealNote: 'x' })).status).toBe(404);
    expect((await admin2.post('/complainReply/save', { complainId: id, content: 'x' })).status).toBe(404);
  });

  it('when a resident files, then staff get message 50 and a channelType 8 push; a staff reply reaches the resident as message 13', async () => {
    const staffSocket = await openRealtime(api, admin);
    const residentSocket = await openRealtime(api, resident);
    try {
      const unread = async (who: Session, type: number) =>
        (await who.post('/base/message/unRead', { messageTypeList: [type] })).body.data.total as number;
      const before = await unread(admin, 50);
      const id = await fileComplaint('Push check');
      const pushed = await staffSocket.waitFor((m) => m.channelType === 8 && m.dataId === id);
      expect(pushed.messageType).toBe(50);
      expect(await unread(admin, 50)).toBe(before + 1);

      const replyBefore = await unread(resident, 13);
      const reply = await admin.post('/complainReply/save', { complainId: id, content: 'We are on it' });
      expect(reply.status).toBe(200);
      expect(reply.body.data).toMatchObject({ content: 'We are on it', personId: admin.personId, companyType: 2 });
      await residentSocket.waitFor((m) => m.channelType === 8 && m.dataId === id && m.messageType === 13);
      expect(await unread(resident, 13)).toBe(replyBefore + 1);
      const replies = await admin.post(`/complainReply/query/id/${id}`, {});
      expect(replies.body.data.total).toBe(1);
      expect((await admin.post(`/complain/query/id/${id}`)).body.data.replyCount).toBe(1);

      await admin.post('/complain/updateDeal', { complainId: id, dealNote: 'on the way' });
      const status = await residentSocket.waitFor((m) => m.channelType === 8 && m.dataId === id && m.status === 2);
      expect(status.messageType).toBeUndefined();
    } finally {
      await staffSocket.close();
      await residentSocket.close();
    }
  });

  it('when work orders are filtered by type and status, then only matching ones come back and totals add up', async () => {
    const saved = await resident.post('/app/eventOrder/save', {
      name: 'Broken door lock',
      note: 'Front door',
      type: 3,
      ...house,
    });
    expect(saved.status).toBe(200);
    const id = saved.body.data.eventOrderId as number;
    const byType = await admin.post('/eventOrder/query/list', { type: 3, eventStatus: 1, limit: 100 });
    expect(byType.body.data.list.map((r: { eventOrderId: number }) => r.eventOrderId)).toContain(id);
    expect(
      byType.body.data.list.every((r: { type: number; eventStatus: number }) => r.type === 3 && r.eventStatus === 1),
    ).toBe(true);
    const totals = (await admin.post('/eventOrder/query/getEventOrderStatusTotalVo')).body.data;
    const all = await admin.post('/eventOrder/query/list', { limit: 1 });
    expect(totals.untreated + totals.processing + totals.completed).toBe(all.body.data.total);
    // The demo staff role may deal with work orders.
    const dealt = await staff.post('/eventOrder/updateDeal', { eventOrderId: id, dealNote: 'Locksmith booked' });
    expect(dealt.status).toBe(200);
    expect(dealt.body.data.eventStatus).toBe(2);
  });

  it("when staff open the reporter's other houses, then they get that person's houses of this estate only", async () => {
    const assets = await admin.get(`/base/personhouse/list/${resident.personId}`);
    expect(assets.status).toBe(200);
    expect(assets.body.data.length).toBeGreaterThan(0);
    const first = assets.body.data[0];
    expect(first.person.name).toBeTruthy();
    expect([first.unit, first.carpark, first.shop].filter(Boolean)).toHaveLength(1);
    const other = await admin2.get(`/base/personhouse/list/${resident.personId}`);
    expect(other.body.data).toEqual([]);
    expect((await resident.get(`/base/personhouse/list/${resident.personId}`)).status).toBe(403);
  });

  it('when rows are filed, dealt with and completed, then the kept totals equal a count of the rows, also by reporter keyword', async () => {
    const id = await fileComplaint('Totals check');
    await admin.post('/complain/updateDeal', { complainId: id, dealNote: 'x' });
    await fileComplaint('Totals check two');
    const me = (await admin.post('/complain/query/getComplainStatusTotalVo')).body.data;
    const counted = await queryRows<{ s: number; n: number }>(
      api.db,
      sql`select complain_status as s, count(*)::int as n from complain c join account a on a.housing_estate_id = c.housing_estate_id
          where a.username = 'admin' group by complain_status`,
    );
    const by = new Map(counted.map((r) => [Number(r.s), r.n]));
    expect(me).toEqual({ untreated: by.get(1) ?? 0, processing: by.get(2) ?? 0, completed: by.get(3) ?? 0 });
    const processing = await admin.post('/complain/query/list', { complainStatus: 2, limit: 1 });
    expect(processing.body.data.total).toBe(me.processing);

    const reporter = (await admin.post(`/complain/query/id/${id}`)).body.data.reportPersonName as string;
    const byName = await admin.post('/complain/query/list', { keyword: reporter.slice(1, 6), limit: 100 });
    expect(byName.body.data.list.map((r: { complainId: number }) => r.complainId)).toContain(id);
    expect(byName.body.data.total).toBeGreaterThanOrEqual(2);
  });
});
