// The audit trail's filter by who (issue 30): a name finds every event made under a matching name,
// by any account (the actor's events are read per account and name, newest first, then merged),
// the account's events under another name not; it pages, counts and combines with the account,
// kind and the estate's days, and never shows another company's actor of the same name. The events
// are written as the api writes them (rows of audit_event, audit_total kept by its trigger) at
// chosen days, then listed through HTTP, on every engine.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestApi, testEngines, type Session, type TestApi } from './kit';

interface Event {
  auditId: number;
  time: string;
  actorAccountId: number;
  actorName: string;
  kind: string;
}

/** yyyy-MM-dd of an instant in a time zone. */
const dayIn = (zone: string, at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

describe.each(testEngines())('the audit filter by who on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let timeZone: string;
  const tag = `W${process.pid % 10_000}`;
  // Ten events, one a day from 20 days ago (event k at 20 - 2k days ago), by these actors:
  // account 9001 was "Mei-Ling Chan" (event 0), then "Mei Ling Chan"; 9002 "Mei Ling Wong"; 9003 "Peter Ho".
  const actorOf = [
    [9001, 'Mei-Ling Chan'],
    [9001, 'Mei Ling Chan'],
    [9002, 'Mei Ling Wong'],
    [9003, 'Peter Ho'],
    [9001, 'Mei Ling Chan'],
    [9002, 'Mei Ling Wong'],
    [9003, 'Peter Ho'],
    [9001, 'Mei Ling Chan'],
    [9002, 'Mei Ling Wong'],
    [9001, 'Mei Ling Chan'],
  ] as const;
  const kindOf = (k: number) => (k % 2 === 0 ? 'staff' : 'role');
  const atOf = (k: number) => new Date(Date.now() - (20 - 2 * k) * 86_400_000);
  let idOf: number[] = [];

  const events = async (filter: object, page = 1, limit = 100): Promise<{ list: Event[]; total: number }> => {
    const res = await admin.post('/base/audit/page', { page, limit, ...filter });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  /** The events a filter lists, as their numbers k (newest first), and its total. */
  const listed = async (filter: object) => {
    const { list, total } = await events(filter);
    return { ks: list.map((e) => idOf.indexOf(e.auditId)), total };
  };

  beforeAll(async () => {
    api = await startTestApi(engine);
    admin = await signIn(api, 'admin');
    const info = (await admin.get(`/account/info/${admin.accId}`)).body.data;
    timeZone = info.company.timeZone;
    const { companyId, housingEstateId } = info.company as { companyId: number; housingEstateId: number };
    idOf = [];
    for (const [k, [account, name]] of actorOf.entries()) {
      const r = (await api.db.execute(
        sql`insert into audit_event (company_id, housing_estate_id, actor_account_id, actor_name, created_at, kind, entity_id, action, summary)
            values (${companyId}, ${housingEstateId}, ${account}, ${`${name} ${tag}`}, ${atOf(k).toISOString()}, ${kindOf(k)}, ${k}, 'update', 'k')
            returning id`,
      )) as unknown as { rows: { id: number }[] };
      idOf.push(r.rows[0].id);
    }
    // Another company's actor of the same name, today.
    await api.db.execute(
      sql`insert into audit_event (company_id, housing_estate_id, actor_account_id, actor_name, kind, entity_id, action)
          values (${companyId + 1000}, ${housingEstateId + 1000}, 9001, ${`Mei Ling Chan ${tag}`}, 'staff', 1, 'update')`,
    );
  });
  afterAll(async () => api?.close());

  it('when events are filtered by a name, then every actor under a matching name is listed newest first, merged, with its total', async () => {
    expect(await listed({ actor: `mei ling` })).toEqual({ ks: [9, 8, 7, 5, 4, 2, 1], total: 7 });
    // The account's events under its former name match that name only.
    expect(await listed({ actor: `chan ${tag}` })).toEqual({ ks: [9, 7, 4, 1, 0], total: 5 });
    expect(await listed({ actor: `mei-ling` })).toEqual({ ks: [0], total: 1 });
    expect(await listed({ actor: `peter ho ${tag}` })).toEqual({ ks: [6, 3], total: 2 });
    expect(await listed({ actor: `nobody ${tag}` })).toEqual({ ks: [], total: 0 });
    // `%` and `_` are themselves.
    expect(await listed({ actor: `mei_ling` })).toEqual({ ks: [], total: 0 });
  });

  it('when a name filter is paged, then the pages follow one another without a gap or a repeat', async () => {
    const pages: number[] = [];
    for (let page = 1; page <= 4; page++) {
      const { list, total } = await events({ actor: 'mei ling' }, page, 2);
      expect(total).toBe(7);
      pages.push(...list.map((e) => idOf.indexOf(e.auditId)));
    }
    expect(pages).toEqual([9, 8, 7, 5, 4, 2, 1]);
  });

  it('when a name is combined with the account, the kind and the estate days, then only events meeting them all are listed and counted', async () => {
    expect(await listed({ actor: 'mei ling', actorAccountId: 9002 })).toEqual({ ks: [8, 5, 2], total: 3 });
    expect(await listed({ actor: 'mei ling', kind: 'staff' })).toEqual({ ks: [8, 4, 2], total: 3 });
    expect(await listed({ actor: 'mei ling', kind: 'role', actorAccountId: 9001 })).toEqual({
      ks: [9, 7, 1],
      total: 3,
    });
    // From event 2's day to event 7's day, in the estate's time zone.
    const days = { startTime: dayIn(timeZone, atOf(2)), endTime: dayIn(timeZone, atOf(7)) };
    expect(await listed({ actor: 'mei ling', ...days })).toEqual({ ks: [7, 5, 4, 2], total: 4 });
    expect(await listed({ actor: `wong ${tag}`, kind: 'role', ...days })).toEqual({ ks: [5], total: 1 });
  });
});
