// A disaster warning to a large estate (issue 21 budget: 10,000 residents and 50 staff, published
// and pushed in under 2 s), run by `npm run bench disaster`. Seeds the demo estate on PGlite (and
// on PostgreSQL when BENCH_DATABASE_URL / TEST_DATABASE_URL is set: a fresh schema, dropped
// after), adds BENCH_RESIDENTS residents (each with an approved unit) and BENCH_STAFF office staff
// accounts, then times POST /disaster/warn/save from the request to the answer (the rows of every
// recipient written, the pushes journaled and published) and to the push reaching a staff
// member's realtime socket. Prints exactly one JSON line on stdout; progress goes to stderr.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openRealtime, signIn, startTestApi, type Engine, type TestApi } from '../test/kit';

const RESIDENTS = Number(process.env.BENCH_RESIDENTS ?? 10_000);
const STAFF = Number(process.env.BENCH_STAFF ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const log = (msg: string) => process.stderr.write(`[disaster bench] ${msg}\n`);
const round = (n: number) => Math.round(n * 10) / 10;

/** Residents with an approved unit each, and office staff accounts, in the admin's estate. */
async function grow(api: TestApi, estate: { companyId: number; housingEstateId: number }): Promise<void> {
  const { companyId: c, housingEstateId: e } = estate;
  await api.db.execute(sql`
    with p as (
      insert into person (company_id, housing_estate_id, name, tel)
      select ${c}, ${e}, 'Bench resident ' || g, '+852 7' || lpad(g::text, 7, '0') from generate_series(1, ${RESIDENTS}) g
      returning id),
    u as (select row_number() over (order by id) - 1 as k, id from unit where housing_estate_id = ${e}),
    n as (select count(*)::int as c from u)
    insert into person_house (company_id, housing_estate_id, person_id, house_type, unit_id, identity, status)
    select ${c}, ${e}, p.id, 1, u.id, 2, 2 from (select row_number() over (order by id) as g, id from p) p
    join u on u.k = p.g % (select c from n)`);
  await api.db.execute(sql`
    with p as (
      insert into person (company_id, housing_estate_id, name, account_type)
      select ${c}, ${e}, 'Bench staff ' || g, 1 from generate_series(1, ${STAFF}) g returning id),
    pc as (insert into person_company (company_id, housing_estate_id, person_id, company_type)
           select ${c}, ${e}, id, 2 from p returning person_id)
    insert into account (company_id, housing_estate_id, person_id, username, password_hash, kind)
    select ${c}, ${e}, person_id, 'bench-staff-' || person_id, 'x', 'staff' from pc`);
}

async function measure(engine: Engine) {
  const api = await startTestApi(engine, { sosReannounceMs: 3_600_000 });
  try {
    const admin = await signIn(api, 'admin');
    const [estate] = (
      (await api.db.execute(
        sql`select company_id as "companyId", housing_estate_id as "housingEstateId" from person where id = ${admin.personId}`,
      )) as unknown as { rows: { companyId: number; housingEstateId: number }[] }
    ).rows;
    log(`${engine}: adding ${RESIDENTS} residents and ${STAFF} staff`);
    await grow(api, estate);
    const socket = await openRealtime(api, admin);
    const answered: number[] = [];
    const pushed: number[] = [];
    let recipients = 0;
    try {
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        const res = await admin.post('/disaster/warn/save', { type: 4, content: `Bench warning ${i}` });
        answered.push(performance.now() - started);
        if (res.status !== 200) throw new Error(`release answered ${res.status}`);
        const id = res.body.data.id as number;
        recipients = res.body.data.recipients as number;
        await socket.waitFor((m) => m.channelType === 10 && m.dataId === id);
        pushed.push(performance.now() - started);
      }
    } finally {
      await socket.close();
    }
    answered.sort((a, b) => a - b);
    pushed.sort((a, b) => a - b);
    return {
      recipients,
      releaseMsMedian: round(answered[Math.floor(RUNS / 2)]),
      releaseMsMax: round(answered[RUNS - 1]),
      pushedMsMedian: round(pushed[Math.floor(RUNS / 2)]),
      pushedMsMax: round(pushed[RUNS - 1]),
    };
  } finally {
    await api.close();
  }
}

const engines: Engine[] = [
  'pglite',
  ...(process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL ? (['postgres'] as const) : []),
];
if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
const figures: Record<string, unknown> = {
  bench: 'disaster-warning',
  residents: RESIDENTS,
  staff: STAFF,
  runs: RUNS,
  budgetMs: 2000,
};
for (const engine of engines) figures[engine] = await measure(engine);
console.log(JSON.stringify(figures));
process.exit(0);
