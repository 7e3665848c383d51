// The dashboard's charts (issue 22): per day of the estate by status, work orders by type, and
// the average minutes to deal and to complete, for the last 7 or 30 days; only for those who may
// list the kind.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import {
  signIn,
  signInResident,
  staffWithout,
  startTestApi,
  testEngines,
  type ResidentSession,
  type Session,
  type TestApi,
} from './kit';

describe.each(testEngines())('dashboard charts on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let resident: ResidentSession;
  let estateId: number;
  const today = () =>
    new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Asia/Hong_Kong',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(new Date());

  beforeAll(async () => {
    api = await startTestApi(engine);
    admin = await signIn(api, 'admin');
    resident = await signInResident(api, 'resident1');
    [{ id: estateId }] = await queryRows<{ id: number }>(
      api.db,
      sql`select id from housing_estate where name = 'Harbour View Garden'`,
    );
    // Everything the demo has is moved out of the last 30 days: the period holds only this test's rows.
    for (const table of ['complain', 'event_order'])
      await api.db.execute(
        sql`update ${sql.raw(table)} set report_time = report_time - interval '90 days',
              deal_time = deal_time - interval '90 days', complete_time = complete_time - interval '90 days'
            where housing_estate_id = ${estateId}`,
      );
  });
  afterAll(async () => api?.close());

  const file = async (path: string, body: object) => {
    const res = await resident.post(path, { note: 'For the charts', ...resident.house, ...body });
    expect(res.status).toBe(200);
    return res.body.data as Record<string, number>;
  };

  it('when complaints were dealt with and completed, then today counts them by status and the averages are their minutes', async () => {
    const done = (await file('/app/complain/save', { name: 'Done' })).complainId;
    await file('/app/complain/save', { name: 'Waiting' });
    await api.db.execute(
      // Reported a second ago (so still the estate's today even just after its midnight), dealt an
      // hour and completed two hours after the report.
      sql`update complain set complain_status = 3, report_time = now() - interval '1 second',
            deal_time = now() - interval '1 second' + interval '1 hour',
            complete_time = now() - interval '1 second' + interval '2 hours' where id = ${done}`,
    );

    const res = await admin.post('/complain/query/stats', { days: 7 });
    expect(res.status).toBe(200);
    const stats = res.body.data;
    expect(stats.days).toHaveLength(7);
    expect(stats.days.at(-1)).toEqual({ day: today(), untreated: 1, processing: 0, completed: 1 });
    expect(
      stats.days.slice(0, 6).every((d: { untreated: number; completed: number }) => !d.untreated && !d.completed),
    ).toBe(true);
    expect(stats.avgDealMinutes).toBe(60);
    expect(stats.avgCompleteMinutes).toBe(120);
    expect(stats.byType).toEqual([]);

    const month = (await admin.post('/complain/query/stats', { days: 30 })).body.data;
    expect(month.days).toHaveLength(30);
    expect(month.days.at(-1).day).toBe(today());
  });

  it('when work orders of two types are reported, then they are counted by type, and nothing dealt gives no average', async () => {
    await file('/app/eventOrder/save', { name: 'Leak', type: 1 });
    await file('/app/eventOrder/save', { name: 'Lift', type: 3 });
    await file('/app/eventOrder/save', { name: 'Leak again', type: 1 });
    const stats = (await admin.post('/eventOrder/query/stats', {})).body.data;
    expect(stats.days).toHaveLength(7);
    expect(stats.byType).toEqual([
      { type: 1, count: 2 },
      { type: 3, count: 1 },
    ]);
    expect(stats.days.at(-1).untreated).toBe(3);
    expect(stats.avgDealMinutes).toBeNull();
  });

  it("when staff may not list work orders, or ask for 14 days, or another estate asks, then 403, 400 and that estate's own figures", async () => {
    const noOrders = await staffWithout(api, admin, 'eventorder:list');
    expect((await noOrders.post('/eventOrder/query/stats', { days: 7 })).status).toBe(403);
    expect((await noOrders.post('/complain/query/stats', { days: 7 })).status).toBe(200);
    const bad = await admin.post('/complain/query/stats', { days: 14 }).set('lang', 'zh-TW');
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/[\u4e00-\u9fff]/);
    // Green Valley Court's rows leave the period too: its figures must not count this estate's three.
    await api.db.execute(
      sql`update event_order set report_time = report_time - interval '90 days' where housing_estate_id <> ${estateId}`,
    );
    const other = (await (await signIn(api, 'admin2')).post('/eventOrder/query/stats', { days: 7 })).body.data;
    expect(other.byType).toEqual([]);
    expect(other.days.every((d: { untreated: number }) => d.untreated === 0)).toBe(true);
  });
});
