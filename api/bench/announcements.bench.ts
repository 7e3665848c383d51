// Announcements at scale (issue 20 budgets), run by `npm run bench announcements`. On PostgreSQL
// (a fresh schema on BENCH_DATABASE_URL / TEST_DATABASE_URL / the local server, dropped
// afterwards): seeds the demo estate, adds BENCH_RECIPIENTS (default 10,000) approved residents to
// its units, publishes a vote to all of them over HTTP (budget: answered in under 2 s), lets half
// of them read and a third vote, then times the results calls (detail with totals and option votes,
// first page of the read list; budget p95 < 25 ms). Prints exactly one JSON line on stdout.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { benchLog, postgresSchema, round, timeRuns } from './kit';
import { queryRows } from '../src/db/sql';
import { findAnnouncement, listReaders, announcementOf } from '../src/modules/announcement/announcement.repository';
import { startApi } from '../src/server';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const log = benchLog('announcements');

const schema = await postgresSchema();
if (!schema) throw new Error('the announcements benchmark needs PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL)');
const api = await startApi({ databaseUrl: schema.url, seed: true, logLevel: 'warn' });
try {
  const { db } = api;
  const [estate] = await queryRows<{ company_id: number; id: number }>(
    db,
    sql`select company_id, id from housing_estate order by id limit 1`,
  );
  log(`adding ${RECIPIENTS} residents`);
  await db.execute(sql`
    with units as (select row_number() over (order by id) - 1 as k, id from unit where housing_estate_id = ${estate.id}),
         n as (select count(*)::int as c from units),
         people as (
           insert into person (company_id, housing_estate_id, name)
           select ${estate.company_id}, ${estate.id}, 'Bench resident ' || g from generate_series(1, ${RECIPIENTS}) g
           returning id)
    insert into person_house (company_id, housing_estate_id, person_id, house_type, unit_id, identity, status)
    select ${estate.company_id}, ${estate.id}, p.id, 1, u.id,
           -- one owner per unit at most (person_house_one_owner_unit): the first newcomer of a unit
           -- without an owner is its owner, the others are tenants or relatives
           case when row_number() over (partition by u.id order by p.id) = 1
                 and not exists (select 1 from person_house x where x.unit_id = u.id and x.identity = 1 and x.status = 2)
                then 1 else 2 + p.id % 2 end,
           2
    from people p join units u on u.k = p.id % (select c from n)`);
  await db.execute(sql`analyze person_house`);

  const token = await fetch(`${api.url}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('console:console-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: 'admin123' }),
  }).then(async (r) => ((await r.json()) as { access_token: string }).access_token);
  const post = async (path: string, body: object = {}) => {
    const r = await fetch(`${api.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await r.json()) as { code: number; data: Record<string, unknown>; msg: string };
    if (json.code !== 200) throw new Error(`${path}: ${json.msg}`);
    return json.data;
  };
  const blocks = await queryRows<{ id: number }>(db, sql`select id from block where housing_estate_id = ${estate.id}`);

  log('publishing');
  const started = performance.now();
  const a = await post('/announcement/save', {
    type: 3,
    title: 'Bench vote',
    content: '<p>Bench</p>',
    recipientBlockIds: blocks.map((b) => b.id),
    recipientIdentities: [1, 2, 3],
    deadline: new Date(Date.now() + 86_400_000).toISOString(),
    selectionMode: 1,
    reminderInterval: 24,
    options: ['A', 'B', 'C'],
  });
  const publishMs = round(performance.now() - started);
  const id = Number(a.id);
  const recipients = Number(a.recipientCount);

  log('half read, a third vote');
  await db.execute(sql`insert into announcement_read (announcement_id, person_id)
    select announcement_id, person_id from announcement_recipient where announcement_id = ${id} and person_id % 2 = 0`);
  await db.execute(sql`insert into announcement_vote (announcement_id, person_id, option_id)
    select ar.announcement_id, ar.person_id, (select min(o.id) from announcement_option o where o.announcement_id = ${id}) + ar.person_id % 3
    from announcement_recipient ar where ar.announcement_id = ${id} and ar.person_id % 6 = 0`);
  await db.execute(sql`vacuum analyze announcement_recipient`);
  await db.execute(sql`vacuum analyze announcement_read`);
  await db.execute(sql`vacuum analyze announcement_vote`);

  const time = async (run: () => Promise<unknown>) => {
    const { p50, p95 } = await timeRuns(run, { runs: RUNS, warmup: 5 });
    return { p50, p95 };
  };
  log('measuring');
  const tenant = { companyId: estate.company_id, housingEstateId: estate.id };
  const record = (await announcementOf(db, tenant, id))!;
  const result = {
    bench: 'announcements',
    engine: 'postgres',
    recipients,
    runs: RUNS,
    publishMs,
    publishBudgetMs: 2000,
    detailWithResults: await time(() => post(`/announcement/query/id/${id}`)),
    readListFirstPage: await time(() => post(`/announcement/query/readers/${id}`, { page: 1, limit: 10, read: 1 })),
    unreadListFirstPage: await time(() => post(`/announcement/query/readers/${id}`, { page: 1, limit: 10, read: 0 })),
    resultsBudgetP95Ms: 25,
    // The same reads without HTTP (the repository's SQL only), and an HTTP call that reads nothing
    // of announcements, to tell the query's time from the machine's.
    sql: {
      detailWithResults: await time(() => findAnnouncement(db, tenant, id)),
      readListFirstPage: await time(() => listReaders(db, record, 1, 10, 0)),
      unreadListFirstPage: await time(() => listReaders(db, record, 0, 10, 0)),
    },
    httpBaseline: await time(() => post('/base/message/unRead', { messageTypeList: [50] })),
  };
  console.log(JSON.stringify(result));
} finally {
  await api.close();
  await schema.drop();
}
