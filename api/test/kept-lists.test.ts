// Complaint list pages kept in the api process (issue 34, part 15): a second read of a page is
// answered from what was kept (the same bytes), and a read made at once after each kind of write
// that changes the page — never polled — shows the change: a new complaint, a status change, the
// reporter renamed, the unit renamed. Pages of two companies, of two estates of one company and of
// two queries are never shared; a role without the list permission still gets 403 and a signed-out
// token 401 while the page is kept. Two apis on one PostgreSQL: kept-two-apis.postgres.test.ts.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import {
  callerOf,
  keptCounts,
  roleWith,
  signIn,
  signInResident,
  staffWithout,
  staffWithRole,
  startTestApi,
  testEngines,
  type ResidentSession,
  type Session,
  type TestApi,
} from './kit';

type Row = Record<string, unknown> & { complainId: number };
type Page = { list: Row[]; total: number; page: number; limit: number; totalPage: number };

const FIRST = { page: 1, limit: 10 };

describe.each(testEngines())('list pages kept on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let resident: ResidentSession;

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, resident] = await Promise.all([signIn(api, 'admin'), signInResident(api, 'resident1')]);
  });
  afterAll(async () => api?.close());

  const list = async (who: Session, body: object = FIRST) => {
    const res = await who.post('/complain/query/list', body);
    expect(res.status).toBe(200);
    return res.body.data as Page;
  };
  /** Reads twice: the second read must be a kept page's. */
  const keep = async (body: object = FIRST, who: Session = admin) => {
    await list(who, body);
    const before = await keptCounts(api, 'api_kept_lists_total');
    const page = await list(who, body);
    expect((await keptCounts(api, 'api_kept_lists_total')).hit).toBe(before.hit + 1);
    return page;
  };
  const file = async (name: string) => {
    const res = await resident.post('/app/complain/save', { name, note: 'Kept pages', ...resident.house });
    expect(res.status).toBe(200);
    return res.body.data.complainId as number;
  };

  it('when a page is read again, then it is answered from the kept page, the same bytes, in each language', async () => {
    const first = await admin.post('/complain/query/list', FIRST);
    const before = await keptCounts(api, 'api_kept_lists_total');
    const second = await admin.post('/complain/query/list', FIRST);
    expect(await keptCounts(api, 'api_kept_lists_total')).toEqual({ hit: before.hit + 1, miss: before.miss });
    expect(second.text).toBe(first.text);
    const zh = await admin.post('/complain/query/list', FIRST).set('lang', 'zh-CN');
    expect(zh.body.data).toEqual(first.body.data);
    expect(zh.body.msg).not.toBe(first.body.msg);
  });

  it('when a complaint is filed or its status changes, then the next read shows it at once, in every filtered page', async () => {
    const untreated = { ...FIRST, complainStatus: 1 };
    const processing = { ...FIRST, complainStatus: 2 };
    const kept = await keep();
    await keep(untreated);
    await keep(processing);

    const id = await file('A new complaint');
    const after = await list(admin);
    expect(after.total).toBe(kept.total + 1);
    expect(after.list[0].complainId).toBe(id);
    expect((await list(admin, untreated)).list[0].complainId).toBe(id);

    await keep();
    await keep(untreated);
    await keep(processing);
    expect((await admin.post('/complain/updateDeal', { complainId: id, dealNote: 'On it' })).status).toBe(200);
    expect((await list(admin)).list.find((r) => r.complainId === id)?.complainStatus).toBe(2);
    expect((await list(admin, untreated)).list.some((r) => r.complainId === id)).toBe(false);
    expect((await list(admin, processing)).list[0].complainId).toBe(id);
  });

  it('when the reporter or the unit is renamed, then the next read shows the new name', async () => {
    const id = await file('Names');
    const row = () => list(admin).then((p) => p.list.find((r) => r.complainId === id)!);
    await keep();
    await api.db.execute(sql`update person set name = ${'Renamed Reporter'} where id = ${resident.personId}`);
    expect((await row()).reportPersonName).toBe('Renamed Reporter');

    const unitId = (await keep()).list.find((r) => r.complainId === id)!.unitId as number;
    expect(unitId).toBeGreaterThan(0);
    await api.db.execute(sql`update unit set name = ${'Unit Renamed'} where id = ${unitId}`);
    expect((await row()).unitName).toBe('Unit Renamed');
  });

  it('when two companies, two estates of one company or two queries ask, then none gets the other’s page', async () => {
    const mine = await keep();
    const other = await signIn(api, 'admin2');
    const theirs = await list(other);
    expect(theirs.total).toBeGreaterThan(0);
    expect(theirs.list.map((r) => r.complainId)).not.toEqual(mine.list.map((r) => r.complainId));
    // And theirs is kept apart: both are hits, each its own.
    expect((await keep(FIRST, other)).list).toEqual(theirs.list);
    expect((await keep()).list).toEqual(mine.list);

    // A second estate of the same company, and a staff account of it (made through the api, moved there).
    const [{ id: estateId }] = await queryRows<{ id: number }>(
      api.db,
      sql`insert into housing_estate (company_id, name, time_zone) values (1, 'Second Estate', 'Asia/Hong_Kong') returning id`,
    );
    const staff = await staffWithRole(api, admin, await roleWith(admin, () => true));
    await api.db.execute(sql`update account set housing_estate_id = ${estateId} where id = ${staff.accId}`);
    const moved = await signIn(api, { username: staff.username, password: 'Secret123' });
    expect(await list(moved)).toMatchObject({ list: [], total: 0 });
    expect((await keep()).total).toBe(mine.total);

    // Another query of the same estate: its own page.
    const second = await keep({ page: 2, limit: 10 });
    expect(second.page).toBe(2);
    expect(second.list.map((r) => r.complainId)).not.toEqual(mine.list.map((r) => r.complainId));
    const small = await keep({ page: 1, limit: 3 });
    expect(small.list.map((r) => r.complainId)).toEqual(mine.list.slice(0, 3).map((r) => r.complainId));
  });

  it('when a role without the list permission or a signed-out token ask, then 403 and 401 though the page is kept', async () => {
    await keep();
    const noList = await staffWithout(api, admin, 'complain:list');
    expect((await noList.post('/complain/query/list', FIRST)).status).toBe(403);
    const staff = await signIn(api, 'admin');
    expect((await staff.post('/complain/query/list', FIRST)).status).toBe(200);
    expect((await staff.post('/auth/signOut')).status).toBe(200);
    expect((await callerOf(api, staff.token).post('/complain/query/list', FIRST)).status).toBe(401);
    await keep();
  });
});

describe('list pages not kept with keepListPages 0', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi('pglite', { keepListPages: 0 });
  });
  afterAll(async () => api?.close());

  it('when a page is read twice, then both are read from the database', async () => {
    const admin = await signIn(api, 'admin');
    const first = await admin.post('/complain/query/list', FIRST);
    const second = await admin.post('/complain/query/list', FIRST);
    expect(second.text).toBe(first.text);
    expect(await keptCounts(api, 'api_kept_lists_total')).toEqual({ hit: 0, miss: 0 });
  });
});
