// Enterprise management (issue 30): the company and its hotlines, departments and staff, on the
// feature template (work-orders.feature.test.ts):
//   1. the happy path            4. another tenant's ids answer 404 and change nothing
//   2. its rules (tree, import)  5. (no push: see the report of issue 30)
//   3. permission per call       6. bad input answered 400, translated, with nothing written
// Everything goes through HTTP as clients do, on the kit (./kit).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callerOf,
  declaredCalls,
  makeCall,
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
  staffFile,
} from './kit';

const TABLES = ['company', 'hotline', 'department', 'person', 'person_company'] as const;

interface Staff {
  personCompanyId: number;
  personId: number;
  name: string;
  staffNumber: string;
  departmentId: number | null;
  accId: number | null;
}
interface Department {
  departmentId: number;
  name: string;
  parentId: number | null;
  level: number;
  staffCount: number;
}

/** The feature's parts as data: the calls of each and their permission. `{id}` is a record of the part. */
const PARTS = (companyId: () => number, principal: () => number) => ({
  company: {
    permission: 'system:company',
    calls: [
      {
        method: 'post',
        path: '/base/company/update',
        body: () => ({ companyId: companyId(), name: 'Taken over', contactPerson: 'X', contactTel: '12345678' }),
      },
      {
        method: 'post',
        path: '/base/company/update/companyandhotline',
        body: () => ({
          company: { companyId: companyId(), name: 'Taken over', contactPerson: 'X', contactTel: '12345678' },
          hotlines: [],
        }),
      },
      {
        method: 'post',
        path: '/base/company/saveorupdate/{id}',
        body: () => ({ name: 'Taken over', contactPerson: 'X', contactTel: '12345678' }),
      },
    ] as (FeatureCall & { record?: true })[],
  },
  departments: {
    permission: 'system:dept',
    calls: [
      { method: 'post', path: '/base/department/page', body: () => ({ page: 1, limit: 100 }) },
      {
        method: 'post',
        path: '/base/department/save',
        body: () => ({ name: 'Intruders', principalPersonId: principal() }),
      },
      {
        method: 'post',
        path: '/base/department/update',
        body: (id) => ({ departmentId: id, name: 'Renamed by someone else', principalPersonId: principal() }),
        record: true,
      },
      { method: 'post', path: '/base/department/delete', body: (id) => ({ departmentIds: [id] }), record: true },
      { method: 'get', path: '/base/department/list/v1/{id}' },
      { method: 'get', path: '/base/department/info/{id}', record: true },
    ] as (FeatureCall & { record?: true })[],
  },
  staff: {
    permission: 'system:staff',
    calls: [
      { method: 'get', path: '/base/personcompany/info/{id}', record: true },
      {
        method: 'post',
        path: '/base/personcompany/saveorupdate',
        body: (id) => ({
          personCompanyId: id,
          name: 'Renamed by someone else',
          gender: 1,
          staffNumber: 'ZZ9999',
          position: 'Nobody',
          yearOfBirth: 1990,
        }),
        record: true,
      },
      { method: 'post', path: '/base/personcompany/delete', body: (id) => ({ personCompanyIds: [id] }), record: true },
      { method: 'post', path: '/base/personcompany/page/v1', body: () => ({ limit: 100 }) },
      { method: 'post', path: '/base/personcompany/page/v2', body: () => ({ departmentId: 1, limit: 100 }) },
      { method: 'post', path: '/base/personcompany/page/v3', body: () => ({ limit: 100 }) },
      { method: 'post', path: '/base/personcompany/page/v4', body: () => ({ limit: 100 }) },
      {
        method: 'post',
        path: '/base/personcompany/removedept',
        body: (id) => ({ personCompanyIds: [id] }),
        record: true,
      },
      { method: 'get', path: '/base/personcompany/import/template' },
    ] as (FeatureCall & { record?: true })[],
  },
});

describe.each(testEngines())('enterprise management on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let resident: ResidentSession;
  let other: { admin: Session; staff: Session };
  let companyId: number;
  let adminPersonId: number;
  let seq = 0;

  const addStaff = async (fields: object = {}): Promise<Staff> => {
    const res = await admin.post('/base/personcompany/saveorupdate', {
      name: `Staff ${++seq}`,
      gender: 2,
      staffNumber: `T${process.pid % 1000}X${seq}`,
      position: 'Cleaner',
      yearOfBirth: 1988,
      tel: '+852 9123 4567',
      ...fields,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as Staff;
  };
  const addDepartment = async (fields: object = {}): Promise<Department> => {
    const res = await admin.post('/base/department/save', {
      name: `Dept ${++seq}`,
      principalPersonId: adminPersonId,
      ...fields,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as Department;
  };
  const staffList = async (view: string, body: object = {}): Promise<Staff[]> => {
    const res = await admin.post(`/base/personcompany/page/${view}`, { page: 1, limit: 100, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.list as Staff[];
  };
  const importFile = (who: Session, file: Buffer, company = companyId) =>
    api.http
      .post(`/base/personcompany/importperson/${company}`)
      .set(who.headers)
      .attach('file', file, { filename: 'staff.xlsx' });

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, resident, other] = await Promise.all([signIn(api, 'admin'), signInResident(api), otherTenant(api)]);
    const info = (await admin.get(`/account/info/${admin.accId}`)).body.data;
    companyId = info.company.companyId;
    adminPersonId = admin.personId;
  });
  afterAll(async () => api?.close());

  it('when an administrator edits the company and its hotlines, then the profile and the ordered hotlines are read back by staff and residents', async () => {
    const before = (await admin.get(`/base/company/info/${companyId}`)).body.data;
    expect(before.companyId).toBe(companyId);
    expect(before.hotlines.length).toBeGreaterThan(0);
    const res = await admin.post('/base/company/update/companyandhotline', {
      company: {
        companyId,
        name: 'Harbour Property Ltd',
        contactPerson: 'Mandy Wong',
        contactTel: '+852 2345 0000',
        address: '1 Harbour Road',
      },
      hotlines: [
        { name: 'Repairs', tel: '23456791' },
        { name: 'Management office', tel: '+852 2345 6789' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Harbour Property Ltd', contactPerson: 'Mandy Wong', logo: null });
    expect(res.body.data.hotlines.map((h: { name: string }) => h.name)).toEqual(['Repairs', 'Management office']);
    const hotlines = (await resident.get(`/base/hotline/list/${companyId}`)).body.data;
    expect(hotlines.map((h: { tel: string }) => h.tel)).toEqual(['23456791', '+852 2345 6789']);
    // The profile alone leaves the hotlines as they are.
    const profile = await admin.post(`/base/company/saveorupdate/${companyId}`, {
      name: 'Harbour Property Limited',
      contactPerson: 'Mandy Wong',
      contactTel: '23450000',
    });
    expect(profile.body.data).toMatchObject({ name: 'Harbour Property Limited', address: '1 Harbour Road' });
    expect(profile.body.data.hotlines).toHaveLength(2);
    const plain = await admin.post('/base/company/update', { companyId, ...before, hotlines: undefined });
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
  });

  it('when departments are added, moved and deleted and staff placed, then the tree, levels, views and counts follow; deleting a department with staff or sub-departments is refused', async () => {
    const top = await addDepartment({ name: 'Operations' });
    const sub = await addDepartment({ name: 'Night shift', parentId: top.departmentId });
    expect(sub).toMatchObject({ parentId: top.departmentId, level: 2, staffCount: 0 });
    const a = await addStaff({ departmentId: sub.departmentId });
    const b = await addStaff();
    expect(a.departmentId).toBe(sub.departmentId);

    // v2 includes sub-departments unless direct; v3 lists the staff without a department.
    const inTop = (await staffList('v2', { departmentId: top.departmentId })).map((s) => s.personCompanyId);
    expect(inTop).toContain(a.personCompanyId);
    expect(await staffList('v2', { departmentId: top.departmentId, direct: true })).toEqual([]);
    expect((await staffList('v3')).map((s) => s.personCompanyId)).toContain(b.personCompanyId);
    expect((await staffList('v3')).map((s) => s.personCompanyId)).not.toContain(a.personCompanyId);
    // v4: staff with a console account (the administrator is one).
    const withAccount = await staffList('v4');
    expect(withAccount.every((s) => s.accId !== null)).toBe(true);
    expect(withAccount.map((s) => s.personId)).toContain(adminPersonId);
    // v1 and its keyword.
    expect((await staffList('v1', { keyword: b.staffNumber })).map((s) => s.personCompanyId)).toEqual([
      b.personCompanyId,
    ]);

    // Move b in, then both out.
    const moved = await admin.post(`/base/personcompany/savetodept/${top.departmentId}`, {
      personCompanyIds: [b.personCompanyId],
    });
    expect(moved.body.data).toEqual({ updated: 1 });
    expect((await admin.get(`/base/department/info/${top.departmentId}`)).body.data.staffCount).toBe(1);

    // Refused while it has staff, or sub-departments.
    const refused = await admin.post('/base/department/delete', { departmentIds: [sub.departmentId] });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toContain('Night shift');
    await admin.post('/base/personcompany/removedept', { personCompanyIds: [a.personCompanyId, b.personCompanyId] });
    const hasSub = await admin.post('/base/department/delete', { departmentIds: [top.departmentId] });
    expect(hasSub.status).toBe(409);

    // A department never moves under itself or its sub-department.
    const loop = await admin.post('/base/department/update', {
      departmentId: top.departmentId,
      name: 'Operations',
      parentId: sub.departmentId,
      principalPersonId: adminPersonId,
    });
    expect(loop.status).toBe(400);
    // Moving the sub-department to the top makes it level 1; the tree shows both at the top.
    const up = await admin.post('/base/department/update', {
      departmentId: sub.departmentId,
      name: 'Night shift',
      parentId: null,
      principalPersonId: adminPersonId,
    });
    expect(up.body.data).toMatchObject({ level: 1, parentId: null });
    const tree = (await admin.get(`/base/department/list/v1/${companyId}`)).body.data as Department[];
    expect(tree.map((d) => d.name)).toEqual(expect.arrayContaining(['Operations', 'Night shift']));

    // Both go at once (one the other's former parent): deleted.
    const gone = await admin.post('/base/department/delete', { departmentIds: [top.departmentId, sub.departmentId] });
    expect(gone.body.data).toEqual({ deleted: 2 });
    expect((await admin.get(`/base/department/info/${top.departmentId}`)).status).toBe(404);
  });

  it('when staff are saved, then the staff number is unique in the estate; staff with an account cannot be deleted, others can', async () => {
    const s = await addStaff({ name: 'Original' });
    const edited = await admin.post('/base/personcompany/saveorupdate', {
      personCompanyId: s.personCompanyId,
      name: 'Edited',
      gender: 1,
      staffNumber: s.staffNumber,
      position: 'Supervisor',
      yearOfBirth: 1980,
    });
    expect(edited.body.data).toMatchObject({ name: 'Edited', position: 'Supervisor', yearOfBirth: 1980 });
    const twice = await admin
      .post('/base/personcompany/saveorupdate', {
        name: 'Copy',
        gender: 1,
        staffNumber: s.staffNumber,
        position: 'x',
        yearOfBirth: 1980,
      })
      .set('lang', 'zh-TW');
    expect(twice.status).toBe(409);
    expect(twice.body.msg).toContain(s.staffNumber);
    expect(twice.body.msg).toMatch(/[\u4e00-\u9fff]/);

    const me = (await staffList('v4')).find((x) => x.personId === adminPersonId) as Staff;
    expect((await admin.post('/base/personcompany/delete', { personCompanyIds: [me.personCompanyId] })).status).toBe(
      409,
    );
    const del = await admin.post('/base/personcompany/delete', { personCompanyIds: [s.personCompanyId] });
    expect(del.body.data).toEqual({ deleted: 1 });
    expect((await admin.get(`/base/personcompany/info/${s.personCompanyId}`)).status).toBe(404);
  });

  it('when a staff file has a bad row, then nothing is written and each problem is named by row and column; the corrected file imports once and again updates', async () => {
    const dept = await addDepartment({ name: 'Import dept' });
    const known = await addStaff({ staffNumber: 'IMP001', name: 'Known' });
    const template = await api.http.get('/base/personcompany/import/template').set(admin.headers).set('lang', 'zh-CN');
    expect(template.status).toBe(200);
    expect(template.headers['content-type']).toContain('spreadsheetml');

    const bad = await staffFile([
      ['IMP001', 'Known renamed', 1, '91234567', 'Guard', 1979, 'Import dept'],
      ['IMP002', 'New one', 2, '9123x567', 'Cleaner', 1990, ''],
      ['IMP003', 'Another', 3, '', 'Cleaner', 1890, 'No such dept'],
      ['IMP002', '', 1, '', '', 1990, ''],
    ]);
    const rows = await rowCounts(api, TABLES);
    const refused = await importFile(admin, bad).set('lang', 'en');
    expect(refused.status).toBe(400);
    const errors = refused.body.data.errors as { row: number; column: string; reason: string }[];
    expect(errors).toEqual(
      expect.arrayContaining([
        { row: 3, column: 'Phone', reason: 'Only enter numbers' },
        { row: 4, column: 'Gender (1 male, 2 female)', reason: 'Enter 1 (male) or 2 (female)' },
        expect.objectContaining({ row: 4, column: 'Year of birth' }),
        { row: 4, column: 'Department', reason: 'No department named No such dept in this estate' },
        { row: 5, column: 'Staff number', reason: 'IMP002 appears twice in this file' },
        { row: 5, column: 'Name', reason: 'Required' },
      ]),
    );
    expect(errors.some((e) => e.row === 2)).toBe(false);
    expect(await rowCounts(api, TABLES)).toEqual(rows);
    // In the person's language.
    const zh = await importFile(admin, bad).set('lang', 'zh-TW');
    expect(zh.body.msg).toMatch(/[\u4e00-\u9fff]/);
    expect(zh.body.data.errors[0].column).toMatch(/[\u4e00-\u9fff]/);

    const good = await staffFile([
      ['IMP001', 'Known renamed', 1, '91234567', 'Guard', 1979, 'Import dept'],
      ['IMP002', 'New one', 2, '91234568', 'Cleaner', 1990, ''],
    ]);
    const done = await importFile(admin, good);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data).toEqual({ total: 2, created: 1, updated: 1 });
    expect((await admin.get(`/base/personcompany/info/${known.personCompanyId}`)).body.data).toMatchObject({
      name: 'Known renamed',
      departmentId: dept.departmentId,
    });
    // The same file again adds nobody.
    const again = await importFile(admin, good);
    expect(again.body.data).toEqual({ total: 2, created: 0, updated: 2 });
    expect(await staffList('v1', { keyword: 'IMP002' })).toHaveLength(1);
    // Not an Excel file, by its content.
    const fake = await importFile(admin, Buffer.from('name,number\nx,1\n'));
    expect(fake.status).toBe(400);
    expect(fake.body.msg).toContain('correct file format');
  });

  it('when a caller lacks the permission a call declares, then that call answers 403 (a resident 403, no token 401) and nothing changes', async () => {
    const dept = await addDepartment({ name: 'Permission check' });
    const s = await addStaff({ departmentId: dept.departmentId });
    const parts = PARTS(
      () => companyId,
      () => adminPersonId,
    );
    for (const part of Object.values(parts)) {
      const calls = await declaredCalls(api, part.calls);
      const lacking = await staffWithout(api, admin, part.permission);
      const rows = await rowCounts(api, TABLES);
      for (const call of calls) {
        const id =
          part === parts.departments ? dept.departmentId : part === parts.staff ? s.personCompanyId : companyId;
        const what = `${call.method.toUpperCase()} ${call.path} (${call.permission})`;
        expect(call.permission, what).toBe(part.permission);
        expect((await makeCall(lacking, call, id)).status, `staff lacking it: ${what}`).toBe(403);
        expect((await makeCall(resident, call, id)).status, `resident: ${what}`).toBe(403);
        expect((await makeCall(callerOf(api, 'no-such-token'), call, id)).status, `no token: ${what}`).toBe(401);
      }
      expect(await rowCounts(api, TABLES)).toEqual(rows);
    }
    const lacking = await staffWithout(api, admin, 'system:staff');
    expect((await importFile(lacking, await staffFile([]))).status).toBe(403);
    expect((await admin.get(`/base/department/info/${dept.departmentId}`)).body.data.name).toBe('Permission check');
  });

  it("when another estate's staff use this estate's ids, then every call answers 404 or leaves it out, and no row changes", async () => {
    const dept = await addDepartment({ name: 'Tenant isolation' });
    const s = await addStaff({ name: 'Tenant isolation', departmentId: dept.departmentId });
    const parts = PARTS(
      () => companyId,
      () => adminPersonId,
    );
    const rows = await rowCounts(api, TABLES);
    for (const [part, id] of [
      [parts.departments, dept.departmentId],
      [parts.staff, s.personCompanyId],
      [parts.company, companyId],
    ] as const) {
      for (const call of part.calls) {
        const res = await makeCall(other.staff, call, id);
        const what = `${call.method.toUpperCase()} ${call.path}`;
        if (call.record || part === parts.company) expect([400, 404], what).toContain(res.status);
        else expect(JSON.stringify(res.body.data ?? ''), what).not.toContain('Tenant isolation');
      }
    }
    // The other company's administrator reads and imports into their own company only.
    expect((await other.admin.get(`/base/company/info/${companyId}`)).status).toBe(404);
    expect((await other.admin.get(`/base/hotline/list/${companyId}`)).body.data).toEqual([]);
    expect((await other.admin.get(`/base/department/list/v1/${companyId}`)).body.data).toEqual([]);
    expect((await importFile(other.admin, await staffFile([['Z1', 'Z', 1, '', 'Z', 1990, '']]))).status).toBe(404);
    // A principal of another estate is refused.
    expect(
      (await other.admin.post('/base/department/save', { name: 'x', principalPersonId: adminPersonId })).status,
    ).toBe(400);
    expect(await rowCounts(api, TABLES)).toEqual(rows);
    expect((await admin.get(`/base/personcompany/info/${s.personCompanyId}`)).body.data.name).toBe('Tenant isolation');
  });

  it('when input is bad, then the call answers 400 with a message in the asked language and writes nothing', async () => {
    const dept = await addDepartment({ name: 'Bad input' });
    const staff = { name: 'x', gender: 1, staffNumber: 'BAD1', position: 'p', yearOfBirth: 1990 };
    const profile = { companyId, name: 'n', contactPerson: 'p', contactTel: '12345678' };
    const rows = await rowCounts(api, TABLES);
    const bad: [string, object][] = [
      ['/base/company/update', { ...profile, contactTel: 'call me' }],
      ['/base/company/update', { ...profile, name: ' ' }],
      ['/base/company/update', { ...profile, contactPerson: undefined }],
      ['/base/company/update', { ...profile, logo: '/upload/files/logo/202601/never-uploaded.png' }],
      ['/base/company/update', { ...profile, companyType: 7 }],
      ['/base/company/update/companyandhotline', { company: profile, hotlines: [{ name: 'x', tel: 'abc' }] }],
      ['/base/company/update/companyandhotline', { company: profile, hotlines: [{ name: '', tel: '123456' }] }],
      ['/base/department/save', { name: '', principalPersonId: adminPersonId }],
      ['/base/department/save', { name: 'x' }],
      ['/base/department/save', { name: 'x', principalPersonId: adminPersonId, parentId: 999999 }],
      ['/base/department/update', { departmentId: 'one', name: 'x', principalPersonId: adminPersonId }],
      ['/base/department/delete', { departmentIds: [] }],
      ['/base/personcompany/saveorupdate', { ...staff, tel: '12ab' }],
      ['/base/personcompany/saveorupdate', { ...staff, yearOfBirth: 1800 }],
      ['/base/personcompany/saveorupdate', { ...staff, yearOfBirth: 'nineteen' }],
      ['/base/personcompany/saveorupdate', { ...staff, gender: 3 }],
      ['/base/personcompany/saveorupdate', { ...staff, staffNumber: 'has space' }],
      ['/base/personcompany/saveorupdate', { ...staff, position: undefined }],
      ['/base/personcompany/saveorupdate', { ...staff, departmentId: 999999 }],
      ['/base/personcompany/delete', { personCompanyIds: [] }],
      ['/base/personcompany/page/v2', {}],
      [`/base/personcompany/savetodept/${dept.departmentId}`, { personCompanyIds: 'all' }],
    ];
    for (const [path, body] of bad) {
      const res = await admin.post(path, body).set('lang', 'zh-CN');
      const what = `${path} ${JSON.stringify(body)}`;
      expect(res.status, what).toBe(400);
      expect(res.body.msg, what).toMatch(/[\u4e00-\u9fff]/);
    }
    const tel = await admin.post('/base/company/update', { ...profile, contactTel: 'call me' }).set('lang', 'en');
    expect(tel.body.msg).toBe('Only enter numbers');
    const none = await admin.post('/base/personcompany/delete', { personCompanyIds: [] }).set('lang', 'en');
    expect(none.body.msg).toMatch(/at least 1/);
    expect(await rowCounts(api, TABLES)).toEqual(rows);
  });
});
