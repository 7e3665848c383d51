// The staff import writes a thousand rows per statement (issue 30 budget): a file larger than one
// batch gives every new employment its own person (name, phone and gender with the right staff
// number, across the batch boundary), and a corrected file updates exactly the rows that changed,
// keeping a department left empty, on every engine.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestApi, testEngines, type Session, type TestApi, staffFile } from './kit';

const ROWS = 1_205;

interface Written {
  staff_number: string;
  name: string;
  gender: number;
  tel: string | null;
  position: string;
  department: string | null;
}

describe.each(testEngines())('the staff import in batches on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let companyId: number;
  const tag = `B${process.pid % 10_000}N`;

  const importFile = async (file: Buffer) => {
    const res = await api.http
      .post(`/base/personcompany/importperson/${companyId}`)
      .set(admin.headers)
      .attach('file', file, { filename: 'staff.xlsx' });
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    return res.body.data;
  };
  const written = async (): Promise<Map<string, Written>> => {
    const r = (await api.db.execute(
      sql`select pc.staff_number, p.name, p.gender, p.tel, pc.position, d.name as department
          from person_company pc join person p on p.id = pc.person_id left join department d on d.id = pc.department_id
          where pc.staff_number like ${`${tag}%`}`,
    )) as unknown as { rows: Written[] };
    return new Map(r.rows.map((w) => [w.staff_number, w]));
  };

  beforeAll(async () => {
    api = await startTestApi(engine);
    admin = await signIn(api, 'admin');
    companyId = (await admin.get(`/account/info/${admin.accId}`)).body.data.company.companyId;
    for (const name of [`${tag} North`, `${tag} South`])
      expect((await admin.post('/base/department/save', { name, principalPersonId: admin.personId })).status).toBe(200);
  });
  afterAll(async () => api?.close());

  it('when more staff than one batch are imported and then corrected, then every row is written to its own person once and only changed rows change', async () => {
    const row = (i: number, corrected = false) => [
      `${tag}${i}`,
      `Batch person ${i}${corrected ? ' renamed' : ''}`,
      1 + (i % 2),
      `6${String(i).padStart(7, '0')}`,
      `Post ${i}`,
      1970 + (i % 30),
      corrected ? '' : `${tag} ${i % 2 ? 'North' : 'South'}`,
    ];
    const all = Array.from({ length: ROWS }, (_, i) => i);
    expect(await importFile(await staffFile(all.map((i) => row(i))))).toEqual({
      total: ROWS,
      created: ROWS,
      updated: 0,
    });
    let rows = await written();
    expect(rows.size).toBe(ROWS);
    for (const i of all)
      expect(rows.get(`${tag}${i}`)).toEqual({
        staff_number: `${tag}${i}`,
        name: `Batch person ${i}`,
        gender: 1 + (i % 2),
        tel: `6${String(i).padStart(7, '0')}`,
        position: `Post ${i}`,
        department: `${tag} ${i % 2 ? 'North' : 'South'}`,
      });

    // Every third row renamed, the department cell left empty (kept); the others as they were.
    const corrected = all.map((i) => (i % 3 === 0 ? row(i, true) : row(i)));
    expect(await importFile(await staffFile(corrected))).toEqual({ total: ROWS, created: 0, updated: ROWS });
    rows = await written();
    expect(rows.size).toBe(ROWS);
    for (const i of all) {
      const w = rows.get(`${tag}${i}`)!;
      expect(w.name).toBe(`Batch person ${i}${i % 3 === 0 ? ' renamed' : ''}`);
      expect(w.department).toBe(`${tag} ${i % 2 ? 'North' : 'South'}`);
    }
    // The keyword finds the renamed rows by their new name.
    const found = await admin.post('/base/personcompany/page/v1', { page: 1, limit: 10, keyword: 'renamed' });
    expect(found.body.data.total).toBe(Math.ceil(ROWS / 3));
  });
});
