// The estate's time zone (issue 16): the session's account info names it, and the list's day
// filters count the estate's days — a report at 00:30 in Hong Kong on 7 November is on the 7th,
// one at 00:30 on the 8th is not — on both engines, whatever zone the api runs in.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPLAINT, EVENT_ORDER } from '@pm/shared';
import { queryRows } from '../src/db/sql';
import { nextCode } from '../src/modules/work-orders/work-orders.repository';
import { signIn, signInResident, startTestApi, testEngines, type Session, type TestApi } from './kit';

describe.each(testEngines())('the estate time zone on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let accId: number;
  let earlyOn7th: number;
  let earlyOn8th: number;
  const ids = (res: { body: { data: { list: { complainId: number }[] } } }) =>
    res.body.data.list.map((r) => r.complainId);
  const listDays = (startTime: string, endTime: string) =>
    admin.post('/complain/query/list', { startTime, endTime, limit: 100 });

  beforeAll(async () => {
    api = await startTestApi(engine);
    admin = await signIn(api, 'admin');
    const resident = await signInResident(api, 'resident1');
    accId = admin.accId;
    const { house } = resident;
    const file = async (name: string) =>
      (
        await resident.post('/app/complain/save', {
          name,
          note: 'Near midnight',
          houseType: house.houseType,
          houseId: house.houseId,
        })
      ).body.data.complainId as number;
    earlyOn7th = await file('Half past midnight on the 7th');
    earlyOn8th = await file('Half past midnight on the 8th');
    // 00:30 in Hong Kong (UTC+8) is 16:30 UTC the day before.
    await queryRows(api.db, sql`update complain set report_time = '2026-11-06T16:30:00Z' where id = ${earlyOn7th}`);
    await queryRows(api.db, sql`update complain set report_time = '2026-11-07T16:30:00Z' where id = ${earlyOn8th}`);
  });
  afterAll(async () => api?.close());

  it("when the session's account info is read, then it names the estate's time zone", async () => {
    const info = await admin.get(`/account/info/${accId}`);
    expect(info.status).toBe(200);
    expect(info.body.data.company.timeZone).toBe('Asia/Hong_Kong');
  });

  it("when a day is filtered, then its rows are those of the estate's day, from midnight to midnight there", async () => {
    const seventh = ids(await listDays('2026-11-07', '2026-11-07'));
    expect(seventh).toContain(earlyOn7th);
    expect(seventh).not.toContain(earlyOn8th);
    const eighth = ids(await listDays('2026-11-08', '2026-11-08'));
    expect(eighth).toContain(earlyOn8th);
    expect(eighth).not.toContain(earlyOn7th);
    // The day before and the range across both.
    expect(ids(await listDays('2026-11-06', '2026-11-06'))).not.toContain(earlyOn7th);
    expect(ids(await listDays('2026-11-07', '2026-11-08'))).toEqual(expect.arrayContaining([earlyOn7th, earlyOn8th]));
  });

  it("when the estate's zone changes, then the same filter follows the new zone's days", async () => {
    await queryRows(api.db, sql`update housing_estate set time_zone = 'UTC' where name = 'Harbour View Garden'`);
    try {
      const seventh = ids(await listDays('2026-11-07', '2026-11-07'));
      expect(seventh).toContain(earlyOn8th);
      expect(seventh).not.toContain(earlyOn7th);
    } finally {
      await queryRows(
        api.db,
        sql`update housing_estate set time_zone = 'Asia/Hong_Kong' where name = 'Harbour View Garden'`,
      );
    }
  });

  it('when an exact instant is given, then it is kept as that instant', async () => {
    const upTo = ids(await listDays('2026-11-06T16:00:00Z', '2026-11-06T16:30:00Z'));
    expect(upTo).toContain(earlyOn7th);
    expect(ids(await listDays('2026-11-06T16:31:00Z', '2026-11-07T16:29:00Z'))).not.toContain(earlyOn7th);
  });

  it("when a complaint or work order is numbered, then its code carries the estate's day, not UTC's", async () => {
    const [{ id: estateId }] = await queryRows<{ id: number }>(
      api.db,
      sql`select id from housing_estate where name = 'Harbour View Garden'`,
    );
    // 17:00 UTC on 6 November is 01:00 on the 7th in Hong Kong.
    const lateUtc = new Date('2026-11-06T17:00:00Z');
    const codes = await api.db.transaction(async (tx) => [
      await nextCode(tx, COMPLAINT, estateId, lateUtc),
      await nextCode(tx, EVENT_ORDER, estateId, lateUtc),
    ]);
    expect(codes[0]).toMatch(/^C20261107\d{4}$/);
    expect(codes[1]).toMatch(/^E20261107\d{4}$/);
  });
});
