// Owners and residents (issue 19), on the feature-kit template (work-orders.feature.test.ts):
//   1. happy path: a join request is reviewed, certified as the new owner (SPEC §4 owner change)
//   2. state machine and the owner-change race (two staff certify two people for one house)
//   3. permission per call          4. another tenant's ids answer 404 and change nothing
//   5. notification and push        6. bad input answered 400, translated, nothing written
// plus refuse / remove as the resident sees them and history rows for each operation type.
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import {
  callerOf,
  makeCall,
  openRealtime,
  otherTenant,
  roleWith,
  rowCounts,
  signInAll,
  staffWithRole,
  startTestApi,
  testEngines,
  type FeatureCall,
  type Session,
  type TestApi,
} from './kit';

/** The staff calls of the feature; `record` calls address one link (or history row) by id. */
const staffCalls: (FeatureCall & { record?: true; history?: true })[] = [
  { method: 'post', path: '/base/personhouse/page', body: () => ({ page: 1, limit: 100 }) },
  { method: 'post', path: '/base/personhouse/member/page', body: (id) => ({ houseType: 1, houseId: id }) },
  { method: 'get', path: '/base/personhouse/info/{id}', record: true },
  { method: 'post', path: '/base/personhouse/review', body: (id) => ({ personHouseId: id, status: 3 }), record: true },
  { method: 'post', path: '/base/personhouse/remove', body: (id) => ({ personHouseId: id }), record: true },
  { method: 'post', path: '/base/personhouse/join/history', body: (id) => ({ personHouseId: id }), record: true },
  { method: 'post', path: '/base/personhousehistory/page/{typeId}/1', body: () => ({ page: 1, limit: 10 }) },
  { method: 'get', path: '/base/personhousehistory/info/{id}', record: true, history: true },
];

const TABLES = ['person_house', 'person_house_history', 'message'] as const;

describe.each(testEngines())('owners and residents on %s', (engine) => {
  let api: TestApi;
  let s: Record<'admin' | 'staff' | 'owner' | 'tenant' | 'relative' | 'shopOwner' | 'other', Session>;
  let other: { admin: Session; staff: Session };

  const one = async <T>(q: ReturnType<typeof sql>) => (await queryRows<T>(api.db, q))[0];
  /** A unit of estate 1 nobody is linked to, with its invite code. */
  let freeUnits: { id: number; invite_code: string }[];
  const freeUnit = () => freeUnits.shift()!;
  const join = async (who: Session, inviteCode: string, identity: number) => {
    const res = await who.post('/app/personhouse/join', { inviteCode, identity });
    expect(res.status).toBe(200);
    return res.body.data.personHouseId as number;
  };
  const ownerOf = (unitId: number) =>
    queryRows<{ person_id: number }>(
      api.db,
      sql`select person_id from person_house where unit_id = ${unitId} and identity = 1 and status = 2`,
    );
  const houseStatus = async (unitId: number) =>
    (await one<{ house_status: number; auth_status: number }>(
      sql`select house_status, auth_status from unit where id = ${unitId}`,
    ))!;
  const houses = async (who: Session) =>
    ((await who.get('/app/house/list')).body.data as { houseType: number; houseId: number }[]).map(
      (h) => `${h.houseType}:${h.houseId}`,
    );
  const unread = async (who: Session, type: number) =>
    (await who.post('/base/message/unRead', { messageTypeList: [type] })).body.data.total as number;

  beforeAll(async () => {
    api = await startTestApi(engine);
    [s, other] = await Promise.all([
      signInAll(api, {
        admin: 'admin',
        staff: 'staff',
        owner: 'resident1',
        tenant: 'resident2',
        relative: 'resident3',
        shopOwner: 'resident4',
        other: 'resident5',
      }),
      otherTenant(api),
    ]);
    freeUnits = await queryRows(
      api.db,
      sql`select u.id, u.invite_code from unit u where u.housing_estate_id = 1
          and not exists (select 1 from person_house ph where ph.unit_id = u.id)
          and not exists (select 1 from person_house_history hh where hh.unit_id = u.id) order by u.id limit 20`,
    );
    expect(freeUnits.length).toBeGreaterThan(10);
  });
  afterAll(async () => api?.close());

  it("when a resident asks to own a unit that has an owner, then the review list shows it, certifying asks SPEC §4's question and, confirmed, moves the old owner to the history in one go", async () => {
    const unit = freeUnit();
    const first = await join(s.owner, unit.invite_code, 1);
    expect((await s.admin.post('/base/personhouse/review', { personHouseId: first, status: 2 })).status).toBe(200);
    expect(await houseStatus(unit.id)).toEqual({ house_status: 5, auth_status: 1 });

    const second = await join(s.other, unit.invite_code, 1);
    const list = await s.admin.post('/base/personhouse/page', { page: 1, limit: 10, houseType: 1 });
    expect(list.status).toBe(200);
    expect(list.body.data.list[0]).toMatchObject({
      personHouseId: second,
      personId: s.other.personId,
      houseType: 1,
      houseId: unit.id,
      identity: 1,
      status: 1,
      currentOwnerName: expect.any(String),
    });

    const asked = await s.admin.post('/base/personhouse/review', { personHouseId: second, status: 2 });
    expect(asked.status).toBe(409);
    expect(asked.body.msg).toMatch(/already has an owner/i);
    expect(await ownerOf(unit.id)).toEqual([{ person_id: s.owner.personId }]);

    const confirmed = await s.admin.post('/base/personhouse/review', {
      personHouseId: second,
      status: 2,
      replaceOwner: true,
    });
    expect(confirmed.status).toBe(200);
    expect(await ownerOf(unit.id)).toEqual([{ person_id: s.other.personId }]);
    expect(await houses(s.owner)).not.toContain(`1:${unit.id}`);
    expect(await houses(s.other)).toContain(`1:${unit.id}`);

    const owners = await s.admin.post('/base/personhouse/member/page', { houseType: 1, houseId: unit.id, identity: 1 });
    expect(owners.body.data.list.map((r: { personId: number }) => r.personId)).toEqual([s.other.personId]);
    const history = await s.admin.post(`/base/personhousehistory/page/${unit.id}/1`, { page: 1, limit: 10 });
    expect(history.body.data.total).toBe(1);
    const row = history.body.data.list[0];
    expect(row).toMatchObject({
      personId: s.owner.personId,
      identity: 1,
      operationType: 1,
      operator: { name: expect.any(String) },
    });
    expect(row.leaveTime).toBeTruthy();
    const detail = await s.admin.get(`/base/personhousehistory/info/${row.personHouseHistoryId}`);
    expect(detail.body.data).toMatchObject({
      personHouseHistoryId: row.personHouseHistoryId,
      personId: s.owner.personId,
      name: expect.any(String),
      gender: expect.any(Number),
      accountType: expect.any(Number),
      identity: 1,
      operationType: 1,
    });
    expect(detail.body.data.purchaseTime).toBeTruthy();
    expect(detail.body.data.leaveTime).toBeTruthy();
    // A decided request is not decided again.
    expect((await s.admin.post('/base/personhouse/review', { personHouseId: second, status: 3 })).status).toBe(404);
  });

  it('when two staff certify two people as owner of one house at the same time, then exactly one owner is left', async () => {
    for (const replaceOwner of [false, true]) {
      const unit = freeUnit();
      const a = await join(s.relative, unit.invite_code, 1);
      const b = await join(s.shopOwner, unit.invite_code, 1);
      const answers = await Promise.all([
        s.admin.post('/base/personhouse/review', { personHouseId: a, status: 2, replaceOwner }),
        s.staff.post('/base/personhouse/review', { personHouseId: b, status: 2, replaceOwner }),
      ]);
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual(replaceOwner ? [200, 200] : [200, 409]);
      expect(await ownerOf(unit.id)).toHaveLength(1);
      const [{ n }] = await queryRows<{ n: number }>(
        api.db,
        sql`select count(*)::int as n from person_house where unit_id = ${unit.id} and identity = 1 and status = 2`,
      );
      expect(n).toBe(1);
      expect((await houseStatus(unit.id)).house_status).toBe(5);
    }
  });

  it('when staff refuse a request with a reason and remove another, then the resident sees the refusal and the reason, and the removed one is gone', async () => {
    const unit = freeUnit();
    const refused = await join(s.tenant, unit.invite_code, 2);
    const removedUnit = freeUnit();
    const removed = await join(s.tenant, removedUnit.invite_code, 3);
    expect((await houseStatus(unit.id)).house_status).toBe(2);
    const r = await s.admin.post('/base/personhouse/review', {
      personHouseId: refused,
      status: 3,
      refuseReason: 'No lease on file',
    });
    expect(r.status).toBe(200);
    expect((await houseStatus(unit.id)).house_status).toBe(1);
    expect((await s.admin.post('/base/personhouse/remove', { personHouseId: removed })).status).toBe(200);

    const mine = (await s.tenant.get('/app/personhouse/requests')).body.data as {
      personHouseId: number;
      status: number;
      refuseReason: string | null;
    }[];
    expect(mine.find((m) => m.personHouseId === refused)).toMatchObject({
      status: 3,
      refuseReason: 'No lease on file',
    });
    expect(mine.find((m) => m.personHouseId === removed)).toBeUndefined();
    expect(await houses(s.tenant)).not.toContain(`1:${removedUnit.id}`);
    // Refused requests show in the review list's "refused" filter with the reason.
    const list = await s.admin.post('/base/personhouse/page', { status: 3, page: 1, limit: 50 });
    expect(list.body.data.list.find((x: { personHouseId: number }) => x.personHouseId === refused)).toMatchObject({
      refuseReason: 'No lease on file',
    });
  });

  it('when people join and leave a house in every way, then each leaves a history row with its operator and operation type', async () => {
    const unit = freeUnit();
    const ownerLink = await join(s.owner, unit.invite_code, 1);
    expect((await s.admin.post('/base/personhouse/review', { personHouseId: ownerLink, status: 2 })).status).toBe(200);
    const tel = async (p: Session) =>
      (await one<{ tel: string }>(sql`select tel from person where id = ${p.personId}`))!.tel;
    // The owner adds a tenant and a relative (operation type 3), approved at once.
    const add = (who: Session, identity: number, relation?: number) =>
      tel(who).then((t) =>
        s.owner.post('/app/personhouse/member/add', { houseType: 1, houseId: unit.id, tel: t, identity, relation }),
      );
    const tenantAdded = await add(s.tenant, 2);
    expect(tenantAdded.status).toBe(200);
    expect((await add(s.relative, 3, 2)).status).toBe(200);
    expect((await add(s.shopOwner, 3, 5)).status).toBe(200);
    expect((await add(s.tenant, 2)).status).toBe(409);
    expect(await houses(s.tenant)).toContain(`1:${unit.id}`);
    const members = (await s.owner.post('/app/personhouse/member/list', { houseType: 1, houseId: unit.id })).body
      .data as { personHouseId: number; personId: number; relation: number | null }[];
    expect(members.map((m) => m.personId).sort()).toEqual(
      [s.tenant.personId, s.relative.personId, s.shopOwner.personId].sort(),
    );
    expect(members.find((m) => m.personId === s.relative.personId)?.relation).toBe(2);
    // A tenant may not manage the house's members.
    expect((await s.tenant.post('/app/personhouse/member/list', { houseType: 1, houseId: unit.id })).status).toBe(403);

    // The tenant leaves (5), the relative leaves (4), the owner removes a friend (3), staff set the owner as history staff (1).
    expect((await s.tenant.post('/app/personhouse/leave', { houseType: 1, houseId: unit.id })).status).toBe(200);
    expect((await s.relative.post('/app/personhouse/leave', { houseType: 1, houseId: unit.id })).status).toBe(200);
    const friend = members.find((m) => m.personId === s.shopOwner.personId)!;
    expect((await s.owner.post('/app/personhouse/member/remove', { personHouseId: friend.personHouseId })).status).toBe(
      200,
    );
    expect((await s.admin.post('/base/personhouse/join/history', { personHouseId: ownerLink })).status).toBe(200);
    expect((await houseStatus(unit.id)).house_status).toBe(6);

    const history = (await s.admin.post(`/base/personhousehistory/page/${unit.id}/1`, { page: 1, limit: 10 })).body.data
      .list as { personId: number; operationType: number; operator: { name: string } }[];
    const byPerson = Object.fromEntries(history.map((h) => [h.personId, h.operationType]));
    expect(byPerson).toEqual({
      [s.tenant.personId]: 5,
      [s.relative.personId]: 4,
      [s.shopOwner.personId]: 3,
      [s.owner.personId]: 1,
    });
    const operators = await queryRows<{ person_id: number; operator_person_id: number }>(
      api.db,
      sql`select person_id, operator_person_id from person_house_history where unit_id = ${unit.id} and leave_time is not null`,
    );
    const operatorOf = Object.fromEntries(operators.map((o) => [o.person_id, o.operator_person_id]));
    expect(operatorOf).toEqual({
      [s.tenant.personId]: s.tenant.personId,
      [s.relative.personId]: s.relative.personId,
      [s.shopOwner.personId]: s.owner.personId,
      [s.owner.personId]: s.admin.personId,
    });
    expect(await houses(s.owner)).not.toContain(`1:${unit.id}`);
  });

  it('when a caller lacks the house list permissions, then every staff call answers 403 (a resident 403, no token 401) and nothing changes', async () => {
    const unit = freeUnit();
    const id = await join(s.other, unit.invite_code, 2);
    const blind = await staffWithRole(api, s.admin, await roleWith(s.admin, (p) => !/^(unit|carpark|shop):/.test(p)));
    const rows = await rowCounts(api, TABLES);
    for (const call of staffCalls) {
      const what = `${call.method.toUpperCase()} ${call.path}`;
      const target = call.path.includes('{typeId}') || call.path.includes('member') ? unit.id : id;
      expect((await makeCall(blind, call, target)).status, `staff without: ${what}`).toBe(403);
      // The review call is also the owner's (for their tenants and members): to another resident the request does not exist.
      const residentStatus = call.path === '/base/personhouse/review' ? 404 : 403;
      expect((await makeCall(s.tenant, call, target)).status, `resident: ${what}`).toBe(residentStatus);
      expect((await makeCall(callerOf(api, 'no-such-token'), call, target)).status, `no token: ${what}`).toBe(401);
    }
    expect(await rowCounts(api, TABLES)).toEqual(rows);
  });

  it("when another estate's staff use this estate's ids, then every call answers 404 or leaves it out, and no row changes", async () => {
    const unit = freeUnit();
    const id = await join(s.other, unit.invite_code, 1);
    const history = await one<{ id: number }>(
      sql`select id from person_house_history where unit_id = ${unit.id} order by id desc limit 1`,
    );
    const rows = await rowCounts(api, TABLES);
    for (const call of staffCalls) {
      const what = `${call.method.toUpperCase()} ${call.path}`;
      const target = call.history
        ? history!.id
        : call.path.includes('{typeId}') || call.path.includes('member')
          ? unit.id
          : id;
      const res = await makeCall(other.staff, call, target);
      if (call.record) expect(res.status, what).toBe(404);
      else {
        expect(res.status, what).toBe(200);
        expect(
          res.body.data.list.map((r: { personId: number }) => r.personId),
          what,
        ).not.toContain(s.other.personId);
      }
    }
    expect((await other.staff.get(`/base/personhouse/certimg/${id}`)).status).toBe(404);
    expect(await rowCounts(api, TABLES)).toEqual(rows);
    expect((await s.admin.get(`/base/personhouse/info/${id}`)).body.data).toMatchObject({ status: 1 });
  });

  it('when staff set a member as history staff, then the staff who list units get message 31 and a push, the person gets event 14, others hear nothing', async () => {
    const unit = freeUnit();
    const id = await join(s.relative, unit.invite_code, 2);
    expect((await s.staff.post('/base/personhouse/review', { personHouseId: id, status: 2 })).status).toBe(200);
    const blind = await staffWithRole(api, s.admin, await roleWith(s.admin, (p) => p !== 'unit:list'));
    const listeners = { admin: s.admin, blind, stranger: other.staff, person: s.relative };
    const sockets = Object.fromEntries(
      await Promise.all(Object.entries(listeners).map(async ([who, x]) => [who, await openRealtime(api, x)] as const)),
    );
    try {
      const before = { admin: await unread(s.admin, 31), blind: await unread(blind, 31) };
      const stranger = await unread(other.staff, 31);
      const ended = await s.staff.post('/base/personhouse/join/history', { personHouseId: id });
      expect(ended.status).toBe(200);
      const pushed = await sockets.admin.waitFor((m) => m.channelType === 14 && m.dataId === id);
      expect(pushed).toMatchObject({ messageType: 31, houseType: 1, houseId: unit.id });
      await sockets.person.waitFor((m) => m.channelType === 14 && m.dataId === id);
      expect(await unread(s.admin, 31)).toBe(before.admin + 1);
      expect(await unread(blind, 31)).toBe(before.blind);
      expect(await unread(other.staff, 31)).toBe(stranger);
      const [msg] = await queryRows<{ person_house_history_id: number }>(
        api.db,
        sql`select person_house_history_id from message where person_id = ${s.admin.personId} and message_type = 31
            and data_id = ${id}`,
      );
      expect(msg.person_house_history_id).toBe(ended.body.data.personHouseHistoryId);
      expect(sockets.blind.messages.filter((m) => m.dataId === id)).toEqual([]);
      expect(sockets.stranger.messages.filter((m) => m.dataId === id)).toEqual([]);
    } finally {
      await Promise.all(Object.values(sockets).map((x) => x.close()));
    }
  });

  it('when a resident joins with a certificate picture, then only staff of the estate with the view permission get it, through the private route, never the public file URL', async () => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#a73' } })
      .png()
      .toBuffer();
    const up = await api.http
      .post('/upload/uploadimage/housecert')
      .set(s.other.headers)
      .attach('file', png, { filename: 'deed.png', contentType: 'image/png' });
    expect(up.status).toBe(200);
    const { originalImagePath, thumbnailPath } = up.body.data as { originalImagePath: string; thumbnailPath: string };
    // Another resident cannot attach someone else's upload.
    const unit = freeUnit();
    const stolen = await s.tenant.post('/app/personhouse/join', {
      inviteCode: unit.invite_code,
      identity: 1,
      houseCertImg: originalImagePath,
    });
    expect(stolen.status).toBe(400);
    const joined = await s.other.post('/app/personhouse/join', {
      inviteCode: unit.invite_code,
      identity: 1,
      houseCertCode: 'HK-DEED-77',
      houseCertImg: originalImagePath,
    });
    expect(joined.status).toBe(200);
    const id = joined.body.data.personHouseId as number;

    for (const path of [originalImagePath, thumbnailPath]) {
      expect((await api.http.get(path.replace(/^\/api/, ''))).status, path).toBe(404);
      expect((await api.http.get('/upload/image').query({ imageUrl: path })).status, path).toBe(404);
    }
    const row = (await s.admin.get(`/base/personhouse/info/${id}`)).body.data;
    expect(row).toMatchObject({ houseCertCode: 'HK-DEED-77', houseCertImg: `/base/personhouse/certimg/${id}` });
    const stored = originalImagePath.split('/').pop()!;
    expect(JSON.stringify(row)).not.toContain(stored);
    const listed = await s.admin.post('/base/personhouse/page', { page: 1, limit: 50, keyword: 'HK-DEED-77' });
    expect(listed.body.data.total).toBe(1);
    expect(JSON.stringify(listed.body.data)).not.toContain(stored);

    const got = await api.http.get(`/base/personhouse/certimg/${id}`).set(s.admin.headers).buffer(true);
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['cache-control']).toContain('no-store');
    expect(Buffer.compare(got.body as Buffer, png)).toBe(0);
    const noView = await staffWithRole(api, s.admin, await roleWith(s.admin, (p) => p !== 'unit:view'));
    expect((await noView.get(`/base/personhouse/certimg/${id}`)).status).toBe(403);
    expect((await s.other.get(`/base/personhouse/certimg/${id}`)).status).toBe(403);
    expect((await other.admin.get(`/base/personhouse/certimg/${id}`)).status).toBe(404);
    expect((await callerOf(api, 'no-such-token').get(`/base/personhouse/certimg/${id}`)).status).toBe(401);
  });

  it('when input is bad, then the call answers 400 with a message in the asked language and writes nothing', async () => {
    const unit = freeUnit();
    const id = await join(s.other, unit.invite_code, 2);
    const rows = await rowCounts(api, TABLES);
    const bad: [Session, string, object][] = [
      [s.admin, '/base/personhouse/review', { personHouseId: id, status: 5 }],
      [s.admin, '/base/personhouse/review', { personHouseId: id, status: 3, refuseReason: 'x'.repeat(300) }],
      [s.admin, '/base/personhouse/review', { personHouseId: 'abc', status: 2 }],
      [s.admin, '/base/personhouse/remove', {}],
      [s.admin, '/base/personhouse/join/history', { personHouseId: -1 }],
      [s.admin, '/base/personhouse/page', { page: 'first' }],
      [s.admin, '/base/personhouse/member/page', { houseType: 9, houseId: unit.id }],
      [s.admin, `/base/personhousehistory/page/${unit.id}/7`, {}],
      [s.owner, '/app/personhouse/member/add', { houseType: 1, houseId: unit.id, tel: '', identity: 2 }],
      [s.owner, '/app/personhouse/leave', { houseType: 1 }],
    ];
    for (const [who, path, body] of bad) {
      const res = await who.post(path, body).set('lang', 'zh-CN');
      expect(res.status, path).toBe(400);
      expect(res.body.msg, path).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(await rowCounts(api, TABLES)).toEqual(rows);
  });
});
