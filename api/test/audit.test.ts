// The audit trail of enterprise management (issue 30): every change of accounts, roles and their
// menus, departments, staff, the company and hotlines and staff imports writes one event with its
// before and after in the change's own transaction (a refused change writes none); the list is
// scoped to the caller's company and estate, filtered and paged; no call and no SQL changes or
// deletes an event. Through HTTP as clients do, on the kit (./kit), on every engine.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../src/modules/audit/record-audit';
import {
  callerOf,
  declaredCalls,
  otherTenant,
  roleWith,
  rowCounts,
  signIn,
  signInResident,
  staffWithout,
  startTestApi,
  testEngines,
  type ResidentSession,
  type Session,
  type TestApi,
  staffFile,
} from './kit';

interface Event {
  auditId: number;
  time: string;
  actorAccountId: number;
  actorName: string;
  kind: string;
  entityId: number | null;
  action: string;
  summary: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** yyyy-MM-dd of an instant in a time zone. */
const dayIn = (zone: string, at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

describe.each(testEngines())('audit trail on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let resident: ResidentSession;
  let other: { admin: Session; staff: Session };
  let companyId: number;
  let timeZone: string;
  let adminName: string;
  let estateId: number;

  const events = async (filter: object = {}, who: Session = admin): Promise<{ list: Event[]; total: number }> => {
    const res = await who.post('/base/audit/page', { page: 1, limit: 100, ...filter });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const eventsOf = async (kind: string, entityId?: number) => (await events({ kind, entityId })).list;
  const count = async () => (await rowCounts(api, ['audit_event'])).audit_event;
  const ok = async (res: Promise<{ status: number; body: { data: unknown } }>) => {
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data as Record<string, never>;
  };

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, resident, other] = await Promise.all([signIn(api, 'admin'), signInResident(api), otherTenant(api)]);
    const info = (await admin.get(`/account/info/${admin.accId}`)).body.data;
    companyId = info.company.companyId;
    timeZone = info.company.timeZone;
    adminName = info.personCompany.person.name;
    estateId = info.company.housingEstateId;
  });
  afterAll(async () => api?.close());

  it('when the company and its hotlines are saved, then one company and one hotlines event hold the values before and after', async () => {
    const before = (await admin.get(`/base/company/info/${companyId}`)).body.data;
    const n = await count();
    await ok(
      admin.post('/base/company/update/companyandhotline', {
        company: { companyId, name: 'Audit Harbour Ltd', contactPerson: 'Ann Audit', contactTel: '23450001' },
        hotlines: [{ name: 'Repairs', tel: '23456791' }],
      }),
    );
    expect(await count()).toBe(n + 2);
    const [company] = await eventsOf('company', companyId);
    expect(company).toMatchObject({
      action: 'update',
      actorAccountId: admin.accId,
      actorName: adminName,
      summary: 'Audit Harbour Ltd',
    });
    expect(company.before).toMatchObject({ name: before.name, contactPerson: before.contactPerson });
    expect(company.after).toMatchObject({
      name: 'Audit Harbour Ltd',
      contactPerson: 'Ann Audit',
      contactTel: '23450001',
    });
    const [hotlines] = await eventsOf('hotlines', companyId);
    expect(hotlines.before).toEqual({
      hotlines: before.hotlines.map((h: { name: string; tel: string }) => `${h.name} ${h.tel}`),
    });
    expect(hotlines.after).toEqual({ hotlines: ['Repairs 23456791'] });
    // The profile alone: one event, no hotlines event.
    await ok(
      admin.post(`/base/company/saveorupdate/${companyId}`, {
        name: 'Audit Harbour Limited',
        contactPerson: 'Ann Audit',
        contactTel: '23450001',
      }),
    );
    expect(await count()).toBe(n + 3);
  });

  it('when departments and staff are added, changed, moved and deleted, then each change is one event with its before and after; refused changes write none', async () => {
    const n0 = await count();
    const dept = await ok(
      admin.post('/base/department/save', { name: 'Audit Ops', principalPersonId: admin.personId }),
    );
    const deptId = dept.departmentId as number;
    const parent = await ok(
      admin.post('/base/department/save', { name: 'Audit Top', principalPersonId: admin.personId }),
    );
    expect(await count()).toBe(n0 + 2);
    let [e] = await eventsOf('department', deptId);
    expect(e).toMatchObject({ action: 'create', before: null, summary: 'Audit Ops' });
    expect(e.after).toMatchObject({ name: 'Audit Ops', parentId: null, principalPersonId: admin.personId });

    await ok(
      admin.post('/base/department/update', {
        departmentId: deptId,
        name: 'Audit Operations',
        principalPersonId: admin.personId,
      }),
    );
    [e] = await eventsOf('department', deptId);
    expect(e).toMatchObject({ action: 'update' });
    expect(e.before).toMatchObject({ name: 'Audit Ops' });
    expect(e.after).toMatchObject({ name: 'Audit Operations' });

    await ok(
      admin.post('/base/department/update', {
        departmentId: deptId,
        name: 'Audit Operations',
        parentId: parent.departmentId,
        principalPersonId: admin.personId,
      }),
    );
    [e] = await eventsOf('department', deptId);
    expect(e).toMatchObject({ action: 'move', before: { parentId: null }, after: { parentId: parent.departmentId } });

    // Staff: add, edit, move in and out.
    const staff = await ok(
      admin.post('/base/personcompany/saveorupdate', {
        name: 'Audit Staff',
        gender: 2,
        staffNumber: `AUD${process.pid % 1000}`,
        position: 'Cleaner',
        yearOfBirth: 1988,
      }),
    );
    const pcId = staff.personCompanyId as number;
    [e] = await eventsOf('staff', pcId);
    expect(e).toMatchObject({ action: 'create', before: null, after: { name: 'Audit Staff', position: 'Cleaner' } });
    await ok(
      admin.post('/base/personcompany/saveorupdate', {
        personCompanyId: pcId,
        name: 'Audit Staff',
        gender: 2,
        staffNumber: staff.staffNumber,
        position: 'Supervisor',
        yearOfBirth: 1988,
      }),
    );
    [e] = await eventsOf('staff', pcId);
    expect(e).toMatchObject({ action: 'update', before: { position: 'Cleaner' }, after: { position: 'Supervisor' } });
    await ok(admin.post(`/base/personcompany/savetodept/${deptId}`, { personCompanyIds: [pcId] }));
    [e] = await eventsOf('staff', pcId);
    expect(e).toMatchObject({
      action: 'move',
      before: { departmentId: null },
      after: { departmentId: deptId, departmentName: 'Audit Operations' },
    });

    // Refused: a department with staff is not deleted, and writes no event.
    const n1 = await count();
    expect((await admin.post('/base/department/delete', { departmentIds: [deptId] })).status).toBe(409);
    // Bad input: nothing either.
    expect((await admin.post('/base/department/save', { name: '', principalPersonId: admin.personId })).status).toBe(
      400,
    );
    expect(await count()).toBe(n1);

    await ok(admin.post('/base/personcompany/removedept', { personCompanyIds: [pcId] }));
    [e] = await eventsOf('staff', pcId);
    expect(e).toMatchObject({ action: 'move', before: { departmentId: deptId }, after: { departmentId: null } });
    await ok(admin.post('/base/personcompany/delete', { personCompanyIds: [pcId] }));
    [e] = await eventsOf('staff', pcId);
    expect(e).toMatchObject({ action: 'delete', after: null, before: { name: 'Audit Staff', position: 'Supervisor' } });
    await ok(admin.post('/base/department/delete', { departmentIds: [deptId, parent.departmentId as number] }));
    [e] = await eventsOf('department', deptId);
    expect(e).toMatchObject({ action: 'delete', after: null, before: { name: 'Audit Operations' } });
    expect(await count()).toBe(n1 + 4);
  });

  it('when staff are imported, then the import is one event with its counts and staff numbers; a refused file writes none', async () => {
    const n = await count();
    const bad = await staffFile([['AI001', 'Bad', 3, '', 'Guard', 1980, '']]);
    const refused = await api.http
      .post(`/base/personcompany/importperson/${companyId}`)
      .set(admin.headers)
      .attach('file', bad, { filename: 'staff.xlsx' });
    expect(refused.status).toBe(400);
    expect(await count()).toBe(n);
    const good = await staffFile([
      ['AI001', 'Imported One', 1, '', 'Guard', 1980, ''],
      ['AI002', 'Imported Two', 2, '', 'Cleaner', 1990, ''],
    ]);
    const res = await api.http
      .post(`/base/personcompany/importperson/${companyId}`)
      .set(admin.headers)
      .attach('file', good, { filename: 'staff.xlsx' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await count()).toBe(n + 1);
    const [e] = await eventsOf('import');
    expect(e).toMatchObject({
      action: 'import',
      entityId: null,
      summary: 'staff.xlsx',
      before: null,
      after: { total: 2, created: 2, updated: 0, createdNumbers: ['AI001', 'AI002'], updatedNumbers: [] },
    });
  });

  it('when accounts are created, changed, given a role, reset and deleted, then each is an event and no password hash is ever stored', async () => {
    const roleA = await roleWith(admin, (p) => p === 'complain:list');
    const roleB = await roleWith(admin, (p) => p === 'unit:list');
    const n = await count();
    const username = `audacc${process.pid}`;
    const created = await ok(
      admin.post('/account/update', { username, password: 'Secret123', name: 'Audit Account', roleId: roleA }),
    );
    const accId = created.accId as number;
    let [e] = await eventsOf('account', accId);
    expect(e).toMatchObject({ action: 'create', before: null, summary: username });
    expect(e.after).toMatchObject({ username, name: 'Audit Account', roleId: roleA, enabled: true });

    await ok(admin.post('/account/update', { accId, name: 'Audit Renamed', password: 'Secret456' }));
    [e] = await eventsOf('account', accId);
    expect(e).toMatchObject({
      action: 'update',
      before: { name: 'Audit Account', passwordChanged: false },
      after: { name: 'Audit Renamed', passwordChanged: true },
    });

    await ok(admin.get(`/account/updaterole/${accId}/${roleB}`));
    [e] = await eventsOf('account', accId);
    expect(e).toMatchObject({ action: 'assign', before: { roleId: roleA }, after: { roleId: roleB } });

    const reset = await ok(admin.get(`/account/reset/password/${accId}`));
    [e] = await eventsOf('account', accId);
    expect(e).toMatchObject({ action: 'reset-password', after: { passwordChanged: true } });

    // Refused: one's own account cannot be deleted, and no event is written.
    const n1 = await count();
    expect((await admin.post('/account/delete', { accIds: [admin.accId] })).status).toBe(409);
    expect(await count()).toBe(n1);

    await ok(admin.post('/account/delete', { accIds: [accId] }));
    [e] = await eventsOf('account', accId);
    expect(e).toMatchObject({ action: 'delete', after: null, before: { username, name: 'Audit Renamed' } });
    expect(await count()).toBe(n + 5);

    // No secret in the trail: not the passwords, not a hash, not a token.
    const raw = (await api.db.execute(sql`select before::text as b, after::text as a from audit_event`)) as unknown as {
      rows: { a: string | null; b: string | null }[];
    };
    const text = raw.rows.map((r) => `${r.b} ${r.a}`).join('\n');
    for (const secret of ['Secret123', 'Secret456', reset.password as string, 'scrypt$', admin.token])
      expect(text).not.toContain(secret);
  });

  it('when a role and its menus are saved, given to persons and deleted, then role and role-menus events hold the names before and after', async () => {
    const menus = (await admin.post('/base/sysmenu/page/v2', { page: 1, limit: 100 })).body.data.list as {
      menuId: number;
      name: string;
      perms: string;
    }[];
    const [m1, m2] = menus.filter((m) => m.perms);
    const n = await count();
    const saved = await ok(
      admin.post('/base/sysrole/saveorupdate', {
        roleName: 'Audit role',
        roleValue: `AUDIT_${process.pid}`,
        menuIds: [m1.menuId],
      }),
    );
    const roleId = saved.roleId as number;
    let [e] = await eventsOf('role', roleId);
    expect(e).toMatchObject({ action: 'create', before: null, after: { roleName: 'Audit role', menus: [m1.name] } });

    await ok(
      admin.post('/base/sysrole/saveorupdate', { roleId, roleName: 'Audit role', menuIds: [m1.menuId, m2.menuId] }),
    );
    [e] = await eventsOf('role-menus', roleId);
    expect(e).toMatchObject({ action: 'update', before: { menus: [m1.name] } });
    expect(e.after?.menus).toEqual(expect.arrayContaining([m1.name, m2.name]));
    expect(await count()).toBe(n + 2);

    const holder = await ok(
      admin.post('/account/update', { username: `audrole${process.pid}`, password: 'Secret123', name: 'Role Holder' }),
    );
    const holderPerson = (await admin.get(`/account/info/${holder.accId}`)).body.data.personCompany.person.personId;
    await ok(admin.post(`/base/sysrole/saveperson/batch/${roleId}/${companyId}`, { personIds: [holderPerson] }));
    [e] = await eventsOf('account', holder.accId);
    expect(e).toMatchObject({ action: 'assign', before: { roleId: null }, after: { roleId, roleName: 'Audit role' } });

    // A role someone holds is not deleted (409) and leaves no event; moved to another role, it is,
    // and the holder's new role is an event of the account.
    const held = await count();
    expect((await admin.post('/base/sysrole/delete', { roleIds: [roleId] })).status).toBe(409);
    expect(await count()).toBe(held);
    const other = await ok(
      admin.post('/base/sysrole/saveorupdate', {
        roleName: 'Audit role 2',
        roleValue: `AUDIT2_${process.pid}`,
        menuIds: [m1.menuId],
      }),
    );
    await ok(admin.post('/base/sysrole/delete', { roleIds: [roleId], moveTo: other.roleId }));
    [e] = await eventsOf('role', roleId);
    expect(e).toMatchObject({
      action: 'delete',
      after: null,
      before: { roleName: 'Audit role', holders: [`audrole${process.pid}`] },
    });
    [e] = await eventsOf('account', holder.accId);
    expect(e).toMatchObject({
      action: 'assign',
      before: { roleId, roleName: 'Audit role' },
      after: { roleId: other.roleId, roleName: 'Audit role 2' },
    });
  });

  it('when an event is written in a transaction that fails, then it is gone with the change', async () => {
    const n = await count();
    const ctx = {
      caller: { accountId: admin.accId, personId: admin.personId } as never,
      tenant: { companyId, housingEstateId: estateId },
    };
    await expect(
      api.db.transaction(async (tx) => {
        await recordAudit(tx, ctx, { kind: 'company', entityId: companyId, action: 'update', after: { name: 'x' } });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await count()).toBe(n);
  });

  it("when events are listed, then only the caller's company is seen, newest first, filtered by who, what and the estate's days, and paged", async () => {
    // The other company makes a change: its own list shows it, ours does not.
    const theirs = await ok(
      other.admin.post('/base/department/save', { name: 'Elsewhere', principalPersonId: other.admin.personId }),
    );
    const ours = await events();
    expect(ours.list.length).toBeGreaterThan(3);
    expect(ours.list.some((e) => e.actorAccountId === other.admin.accId)).toBe(false);
    const theirList = await events({}, other.admin);
    expect(theirList.list.map((e) => e.entityId)).toContain(theirs.departmentId);
    expect(theirList.list.some((e) => e.actorAccountId === admin.accId)).toBe(false);

    // The kept totals (audit_total) are the counts of the rows.
    const counted = async (kind?: string) => {
      const r = (await api.db.execute(
        sql`select count(*)::int as n from audit_event where company_id = ${companyId} and housing_estate_id = ${estateId}
            ${kind ? sql`and kind = ${kind}` : sql``}`,
      )) as unknown as { rows: { n: number }[] };
      return r.rows[0].n;
    };
    expect(ours.total).toBe(await counted());
    expect((await events({ kind: 'staff' })).total).toBe(await counted('staff'));
    // Newest first.
    const ids = ours.list.map((e) => e.auditId);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    // What and who.
    expect((await events({ kind: 'staff' })).list.every((e) => e.kind === 'staff')).toBe(true);
    expect((await events({ kind: 'staff' })).total).toBeGreaterThan(0);
    expect((await events({ actorAccountId: admin.accId })).total).toBe(ours.total);
    expect((await events({ actor: adminName.slice(0, 3) })).total).toBe(ours.total);
    expect((await events({ actor: 'nobody-is-called-this' })).total).toBe(0);
    expect((await events({ action: 'import' })).list.every((e) => e.action === 'import')).toBe(true);
    // Days of the estate's time zone.
    const today = dayIn(timeZone, new Date());
    const tomorrow = dayIn(timeZone, new Date(Date.now() + 86_400_000));
    const lastYear = dayIn(timeZone, new Date(Date.now() - 365 * 86_400_000));
    expect((await events({ startTime: today, endTime: today })).total).toBe(ours.total);
    expect((await events({ startTime: tomorrow })).total).toBe(0);
    expect((await events({ endTime: lastYear })).total).toBe(0);
    // Paging.
    const p1 = await admin.post('/base/audit/page', { page: 1, limit: 2 });
    const p2 = await admin.post('/base/audit/page', { page: 2, limit: 2 });
    expect(p1.body.data).toMatchObject({ total: ours.total, page: 1, limit: 2, totalPage: Math.ceil(ours.total / 2) });
    expect(p1.body.data.list).toHaveLength(2);
    expect(p2.body.data.list.map((e: Event) => e.auditId)).toEqual(ids.slice(2, 4));
  });

  it('when the list is called without system:company, as a resident or without a token, then it is refused; bad input answers 400', async () => {
    const [declared] = await declaredCalls(api, [{ method: 'post', path: '/base/audit/page' }]);
    expect(declared.permission).toBe('system:company');
    const without = await staffWithout(api, admin, 'system:company');
    expect((await without.post('/base/audit/page', {})).status).toBe(403);
    expect((await resident.post('/base/audit/page', {})).status).toBe(403);
    expect((await api.http.post('/base/audit/page').send({})).status).toBe(401);
    expect((await callerOf(api, 'made-up-token').post('/base/audit/page', {})).status).toBe(401);
    for (const body of [
      { kind: 'nothing' },
      { action: 'erase' },
      { limit: 100_000 },
      { page: 0 },
      { actorAccountId: -1 },
      { startTime: 'yesterday-ish' },
    ]) {
      const res = await admin.post('/base/audit/page', body).set('lang', 'zh-CN');
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.msg).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('when anyone tries to change or delete an event, then no call exists for it and the database refuses it', async () => {
    const [e] = (await events({ limit: 1 })).list;
    const tries: [string, string, object][] = [
      ['post', '/base/audit/update', { auditId: e.auditId, summary: 'x' }],
      ['post', '/base/audit/save', { auditId: e.auditId }],
      ['post', '/base/audit/saveorupdate', { auditId: e.auditId }],
      ['post', '/base/audit/delete', { auditIds: [e.auditId] }],
      ['post', `/base/audit/delete/${e.auditId}`, {}],
      ['get', `/base/audit/delete/${e.auditId}`, {}],
      ['post', '/base/audit/clear', {}],
      ['put', `/base/audit/${e.auditId}`, {}],
      ['patch', `/base/audit/${e.auditId}`, {}],
      ['delete', `/base/audit/${e.auditId}`, {}],
    ];
    for (const [method, path, body] of tries) {
      const send = (api.http as unknown as Record<string, (p: string) => import('supertest').Test>)[method];
      const res = await send.call(api.http, path).set(admin.headers).send(body);
      expect([404, 405], `${method} ${path}`).toContain(res.status);
    }
    // The api's own table of calls: the only audit call reads.
    const doc = (await api.http.get('/openapi.json')).body as { paths: Record<string, object> };
    expect(Object.keys(doc.paths).filter((p) => p.includes('audit'))).toEqual(['/base/audit/page']);
    expect(Object.keys(doc.paths['/base/audit/page'])).toEqual(['post']);
    const after = (await events({ limit: 1 })).list[0];
    expect(after).toEqual(e);

    // And below the api: the table refuses UPDATE and DELETE.
    const refusal = (query: ReturnType<typeof sql>) =>
      api.db.execute(query).then(
        () => 'written',
        (err: { message?: string; cause?: { message?: string } }) => `${err.cause?.message ?? ''} ${err.message ?? ''}`,
      );
    expect(await refusal(sql`update audit_event set summary = 'x' where id = ${e.auditId}`)).toMatch(/append-only/);
    expect(await refusal(sql`delete from audit_event where id = ${e.auditId}`)).toMatch(/append-only/);
    expect((await events({ limit: 1 })).list[0]).toEqual(e);
  });
});
