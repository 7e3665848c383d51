// The account tab's keyword (issue 30): matched against account.search, one column kept by database
// triggers (migration account_search_triggers) from the account name and the person's name. It finds
// what the former `ilike` on the username or person.name found (any part of either, whatever the
// case, `%` and `_` as themselves, never across the two), in the account tab and in a role's holders,
// follows a renamed account and a renamed person at once, and stays within the estate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otherTenant, signIn, startTestApi, testEngines, type Session, type TestApi } from './kit';

interface AccountItem {
  accId: number;
  personId: number;
  username: string;
  name: string;
}

describe.each(testEngines())('the account keyword on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let other: Session;
  const roleOf = new Map<Session, number>();
  // Unique to this run, so seeded accounts never match.
  const tag = `k${process.pid % 10_000}`;

  const create = async (who: Session, username: string, name: string): Promise<number> => {
    const res = await who.post('/account/update', { username, password: 'Secret123', name, roleId: roleOf.get(who) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.accId as number;
  };
  /** The account names the keyword finds in the account tab. */
  const found = async (keyword: string, who = admin): Promise<string[]> => {
    const res = await who.post('/account/page', { page: 1, limit: 100, keyword });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.total).toBe(res.body.data.list.length);
    return (res.body.data.list as AccountItem[]).map((a) => a.username).sort();
  };
  /** The account names the keyword finds among the holders (or not) of the caller's role. */
  const holders = async (keyword: string, holding: boolean): Promise<string[]> => {
    const res = await admin.post('/base/sysrole/person/page', {
      roleId: roleOf.get(admin),
      holding,
      page: 1,
      limit: 100,
      keyword,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.total).toBe(res.body.data.list.length);
    return (res.body.data.list as AccountItem[]).map((a) => a.username).sort();
  };

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, other] = await Promise.all([signIn(api, 'admin'), otherTenant(api).then((t) => t.admin)]);
    for (const who of [admin, other])
      roleOf.set(who, (await who.get(`/account/info/${who.accId}`)).body.data.role.roleId as number);
  });
  afterAll(async () => api?.close());

  it('when accounts are searched, then any part of the account name or the person name finds them, whatever the case, and only in the estate', async () => {
    await create(admin, `${tag}.wong`, `Wong Tai Sin ${tag}`);
    await create(admin, `${tag}_chan`, `陳大文 ${tag}`);
    await create(admin, `${tag}xchan`, `Chan Siu Ming ${tag}`);
    // Another company's account with the same person name.
    await create(other, `${tag}.wong9`, `Wong Tai Sin ${tag}`);

    expect(await found(`${tag}.wong`)).toEqual([`${tag}.wong`]); // the account name
    expect(await found(`${tag}.WONG`)).toEqual([`${tag}.wong`]); // in any case
    expect(await found('tai SIN')).toEqual([`${tag}.wong`]); // part of the person name
    expect(await found('大文')).toEqual([`${tag}_chan`]);
    expect(await found(tag)).toHaveLength(3);
    // `_` and `%` are themselves, not wildcards.
    expect(await found(`${tag}_c`)).toEqual([`${tag}_chan`]);
    expect(await found(`${tag}%`)).toEqual([]);
    // A keyword never spans the account name and the person name.
    expect(await found(`${tag}.wongwong`)).toEqual([]);
    // The other company sees its own only.
    expect(await found('tai sin', other)).toEqual([`${tag}.wong9`]);
    // A role's holders: the same keyword, holding the role or not.
    expect(await holders('siu ming', true)).toEqual([`${tag}xchan`]);
    expect(await holders('siu ming', false)).toEqual([]);
  });

  it('when an account or its person is renamed, then the keyword finds the new name at once and no longer the old one', async () => {
    const accId = await create(admin, `${tag}.ho`, `Ho Wing ${tag}`);
    const [row] = (await admin.post('/account/page', { page: 1, limit: 10, keyword: `${tag}.ho` })).body.data
      .list as AccountItem[];
    expect(row).toMatchObject({ accId, username: `${tag}.ho`, name: `Ho Wing ${tag}` });

    // The account form: the account name and the person name.
    const renamed = await admin.post('/account/update', { accId, username: `${tag}.yip`, name: `Yip Man Kit ${tag}` });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(await found(`${tag}.ho`)).toEqual([]);
    expect(await found('ho wing')).toEqual([]);
    expect(await found(`${tag}.yip`)).toEqual([`${tag}.yip`]);
    expect(await found('man kit')).toEqual([`${tag}.yip`]);
    expect(await holders('man kit', true)).toEqual([`${tag}.yip`]);

    // The person's own record (another module writes person).
    const person = await admin.post(`/base/person/saveorupdate/${row.personId}`, { name: `Lam Ka Yan ${tag}` });
    expect(person.status, JSON.stringify(person.body)).toBe(200);
    expect(await found('man kit')).toEqual([]);
    expect(await holders('man kit', true)).toEqual([]);
    expect(await found('ka yan')).toEqual([`${tag}.yip`]);
    expect(await holders('ka yan', true)).toEqual([`${tag}.yip`]);
    // The account name still finds it.
    expect(await found(`${tag}.yip`)).toEqual([`${tag}.yip`]);
  });
});
