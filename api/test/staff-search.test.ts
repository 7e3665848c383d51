// The staff list's keyword (issue 30): matched against person_company.search, one column kept by
// database triggers (migration staff_search_triggers) from the staff number, the person's name and
// tel, and the position. It finds what the former per-column `ilike` found (any part of any of the
// four, whatever the case, `%` and `_` as themselves, never across two of them), follows every way
// these change (the staff form, the person's own record, an import) and stays within the estate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otherTenant, signIn, startTestApi, testEngines, type Session, type TestApi, staffFile } from './kit';

interface Staff {
  personCompanyId: number;
  personId: number;
  staffNumber: string;
  name: string;
}

describe.each(testEngines())('the staff keyword on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let other: Session;
  let companyId: number;
  // Unique to this run, so seeded staff never match.
  const tag = `Q${process.pid % 10_000}`;

  const save = async (who: Session, fields: object): Promise<Staff> => {
    const res = await who.post('/base/personcompany/saveorupdate', {
      gender: 1,
      position: 'Cleaner',
      yearOfBirth: 1985,
      ...fields,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as Staff;
  };
  /** The staff numbers the keyword finds, in every view it applies to. */
  const found = async (keyword: string, who = admin): Promise<string[]> => {
    const res = await who.post('/base/personcompany/page/v1', { page: 1, limit: 100, keyword });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.total).toBe(res.body.data.list.length);
    return (res.body.data.list as Staff[]).map((s) => s.staffNumber).sort();
  };

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, other] = await Promise.all([signIn(api, 'admin'), otherTenant(api).then((t) => t.admin)]);
    companyId = (await admin.get(`/account/info/${admin.accId}`)).body.data.company.companyId;
  });
  afterAll(async () => api?.close());

  it('when staff are searched, then any part of the staff number, name, phone or position finds them, whatever the case, and only in the estate', async () => {
    await save(admin, {
      staffNumber: `${tag}-A1`,
      name: `Wong Tai Sin ${tag}`,
      tel: '+852 9876 5432',
      position: `Night Guard ${tag}`,
    });
    await save(admin, { staffNumber: `${tag}-B2`, name: `陳大文 ${tag}`, tel: '23456789', position: '保安員' });
    await save(admin, { staffNumber: `${tag}_C3`, name: `Chan Siu Ming ${tag}`, position: 'Cleaner' });
    await save(admin, { staffNumber: `${tag}XC3`, name: `Lee Ka Yan ${tag}`, position: 'Cleaner' });
    // Another company's staff with the same words.
    await save(other, { staffNumber: `${tag}-A9`, name: `Wong Tai Sin ${tag}`, tel: '+852 9876 5432' });

    const a = [`${tag}-A1`];
    expect(await found(`${tag}-A1`)).toEqual(a); // the staff number
    expect(await found(`${tag}-a1`.toLowerCase())).toEqual(a); // in any case
    expect(await found('tai SIN')).toEqual(a); // part of the name
    expect(await found('9876 54')).toEqual(a); // part of the phone
    expect(await found('night g')).toEqual(a); // part of the position
    expect(await found('大文')).toEqual([`${tag}-B2`]);
    expect(await found('保安')).toEqual([`${tag}-B2`]);
    expect(await found(tag)).toHaveLength(4);
    // `_` and `%` are themselves, not wildcards.
    expect(await found(`${tag}_c`)).toEqual([`${tag}_C3`]);
    expect(await found(`${tag}%`)).toEqual([]);
    // A keyword never spans two fields (number and name, name and phone).
    expect(await found(`A1Wong`)).toEqual([]);
    expect(await found(`${tag}+852`)).toEqual([]);
    // The other company sees its own only.
    expect(await found('tai sin', other)).toEqual([`${tag}-A9`]);
  });

  it('when a staff member is changed through the staff form, their own person record or an import, then the keyword follows at once', async () => {
    const s = await save(admin, {
      staffNumber: `${tag}-D4`,
      name: `Ho Wing ${tag}`,
      tel: '61112222',
      position: 'Gardener',
    });
    // The staff form: every field.
    await save(admin, {
      personCompanyId: s.personCompanyId,
      staffNumber: `${tag}-E5`,
      name: `Ho Wing Kei ${tag}`,
      tel: '63334444',
      position: 'Head gardener',
    });
    expect(await found(`${tag}-D4`)).toEqual([]);
    expect(await found('61112222')).toEqual([]);
    expect(await found(`${tag}-E5`)).toEqual([`${tag}-E5`]);
    expect(await found('wing kei')).toEqual([`${tag}-E5`]);
    expect(await found('63334444')).toEqual([`${tag}-E5`]);
    expect(await found('head garden')).toEqual([`${tag}-E5`]);

    // The person's own record (another module writes person): name and phone.
    const renamed = await admin.post(`/base/person/saveorupdate/${s.personId}`, {
      name: `Ho Man Yee ${tag}`,
      tel: '65556666',
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(await found('wing kei')).toEqual([]);
    expect(await found('man yee')).toEqual([`${tag}-E5`]);
    expect(await found('65556666')).toEqual([`${tag}-E5`]);

    // An import: a known staff number updates that person, a new one is found at once.
    const file = await staffFile([
      [`${tag}-E5`, `Ho Imported ${tag}`, 1, '67778888', 'Porter', 1980, ''],
      [`${tag}-F6`, `Yip Imported ${tag}`, 2, '69990000', 'Porter', 1990, ''],
    ]);
    const imported = await api.http
      .post(`/base/personcompany/importperson/${companyId}`)
      .set(admin.headers)
      .attach('file', file, { filename: 'staff.xlsx' });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body.data).toEqual({ total: 2, created: 1, updated: 1 });
    expect(await found('man yee')).toEqual([]);
    expect(await found('ho imported')).toEqual([`${tag}-E5`]);
    expect(await found('67778888')).toEqual([`${tag}-E5`]);
    expect(await found('yip imp')).toEqual([`${tag}-F6`]);
    expect(await found('69990000')).toEqual([`${tag}-F6`]);
    expect(await found(`porter`)).toEqual([`${tag}-E5`, `${tag}-F6`]);
  });
});
