// The staff import's preview (issue 30): `?check=true` checks a file as the import does and
// answers its counts (or its problems by row, column and reason) without writing; the import
// itself is tested in enterprise.feature.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  rowCounts,
  signIn,
  staffWithout,
  startTestApi,
  testEngines,
  type Session,
  type TestApi,
  staffFile,
} from './kit';

const TABLES = ['person', 'person_company'] as const;

describe.each(testEngines())('the staff import preview on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let companyId: number;
  const upload = (who: Session, file: Buffer, query = '?check=true', company = companyId) =>
    api.http
      .post(`/base/personcompany/importperson/${company}${query}`)
      .set(who.headers)
      .attach('file', file, { filename: 'staff.xlsx' });

  beforeAll(async () => {
    api = await startTestApi(engine);
    admin = await signIn(api, 'admin');
    companyId = (await admin.get(`/account/info/${admin.accId}`)).body.data.company.companyId;
  });
  afterAll(async () => api?.close());

  it('when a file is checked, then its counts or its problems are answered and nothing is written; the import then writes it once', async () => {
    const rows = await rowCounts(api, TABLES);
    const bad = await staffFile([
      ['PRE001', 'Preview one', 1, '91234567', 'Guard', 1980, ''],
      ['PRE002', 'Preview two', 2, '12ab', 'Cleaner', 1990, ''],
    ]);
    const refused = await upload(admin, bad).set('lang', 'en');
    expect(refused.status).toBe(400);
    expect(refused.body.data.errors).toEqual([{ row: 3, column: 'Phone', reason: 'Only enter numbers' }]);

    const good = await staffFile([
      ['PRE001', 'Preview one', 1, '91234567', 'Guard', 1980, ''],
      ['PRE002', 'Preview two', 2, '91234568', 'Cleaner', 1990, ''],
    ]);
    const checked = await upload(admin, good);
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    expect(checked.body.data).toEqual({ total: 2, created: 2, updated: 0 });
    expect(await rowCounts(api, TABLES)).toEqual(rows);

    const done = await upload(admin, good, '');
    expect(done.body.data).toEqual({ total: 2, created: 2, updated: 0 });
    expect((await rowCounts(api, TABLES)).person_company).toBe(rows.person_company + 2);
    // Checked again, the same file now updates both.
    expect((await upload(admin, good)).body.data).toEqual({ total: 2, created: 0, updated: 2 });
  });

  it('when the preview is asked without system:staff, for another company, or with a bad flag, then it is refused', async () => {
    const file = await staffFile([['PRE9', 'x', 1, '', 'x', 1990, '']]);
    const lacking = await staffWithout(api, admin, 'system:staff');
    const rows = await rowCounts(api, TABLES);
    expect((await upload(lacking, file)).status).toBe(403);
    expect((await upload(admin, file, '?check=true', companyId + 1000)).status).toBe(404);
    const flag = await upload(admin, file, '?check=maybe').set('lang', 'zh-CN');
    expect(flag.status).toBe(400);
    expect(flag.body.msg).toMatch(/[\u4e00-\u9fff]/);
    expect(await rowCounts(api, TABLES)).toEqual(rows);
  });
});
