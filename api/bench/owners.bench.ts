// Owners and residents at scale (issue 19 budget), run by `npm run bench owners`. Seeds the demo
// estate, adds BENCH_HOUSES units (default 50,000) to its first estate, BENCH_LINKS person↔house
// rows (default 200,000: an owner and three tenants or members per unit, one owner in fifty still
// pending review) and BENCH_HISTORY history rows (default 1,000,000, twenty per unit) with
// generate_series, then times the owner-review list (first, deep, filtered and keyword pages), a
// house's member page and its history-staff page — on PostgreSQL (a fresh schema on
// BENCH_DATABASE_URL / TEST_DATABASE_URL / the local server, dropped afterwards) and, unless
// BENCH_SKIP_PGLITE=1, on PGlite. Budget: p95 < 25 ms on PostgreSQL. One JSON line on stdout.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { benchLog, postgresSchema, round, timeList } from './kit';
import { openDatabase, type Db } from '../src/db/open-database';
import { queryRows } from '../src/db/sql';
import { historyPage, memberPage, reviewPage, reviewTotals } from '../src/modules/person/house-people.repository';
import { seedDemo } from '../src/seed/seed-demo';

const HOUSES = Number(process.env.BENCH_HOUSES ?? 50_000);
const LINKS = Number(process.env.BENCH_LINKS ?? 200_000);
const HISTORY = Number(process.env.BENCH_HISTORY ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const CHUNK = 100_000;
const log = benchLog('owners');

const time = (run: () => Promise<{ total: number }>) => timeList(run, RUNS);

async function fill(db: Db, estateId: number, companyId: number): Promise<{ minUnit: number }> {
  const [{ id: floorId, block_id: blockId }] = await queryRows<{ id: number; block_id: number }>(
    db,
    sql`select id, block_id from floor where housing_estate_id = ${estateId} order by id limit 1`,
  );
  const [{ max }] = await queryRows<{ max: number }>(db, sql`select max(id)::int as max from unit`);
  await db.execute(
    sql.raw(`insert into unit (company_id, housing_estate_id, block_id, floor_id, name, invite_code)
      select ${companyId}, ${estateId}, ${blockId}, ${floorId}, 'B' || g, 'BENCH' || lpad(g::text, 21, '0')
      from generate_series(1, ${HOUSES}) g`),
  );
  const minUnit = max + 1;
  const persons = `(select array_agg(id order by id) from person where housing_estate_id = ${estateId})`;
  for (let from = 0; from < LINKS; from += CHUNK) {
    const to = Math.min(LINKS, from + CHUNK) - 1;
    await db.execute(
      sql.raw(`with p as (select ${persons} as ids)
        insert into person_house (company_id, housing_estate_id, person_id, house_type, unit_id, identity, relation,
                                  status, house_cert_code, join_time)
        select ${companyId}, ${estateId}, p.ids[1 + g % array_length(p.ids, 1)], 1, ${minUnit} + (g / 4) % ${HOUSES},
               case g % 4 when 0 then 1 when 1 then 2 else 3 end, case when g % 4 >= 2 then 1 + g % 5 end,
               case when g % 4 = 0 and (g / 4) % 50 = 0 then 1 else 2 end, 'HC-B' || g,
               now() - make_interval(secs => g * 20)
        from generate_series(${from}, ${to}) g, p`),
    );
  }
  for (let from = 0; from < HISTORY; from += CHUNK) {
    const to = Math.min(HISTORY, from + CHUNK) - 1;
    await db.execute(
      sql.raw(`with p as (select ${persons} as ids)
        insert into person_house_history (company_id, housing_estate_id, person_id, house_type, unit_id, identity,
                                          purchase_time, leave_time, operator_person_id, operation_type, created_at)
        select ${companyId}, ${estateId}, p.ids[1 + g % array_length(p.ids, 1)], 1, ${minUnit} + g % ${HOUSES},
               1 + g % 3, now() - make_interval(days => 400 + g % 300), now() - make_interval(secs => g * 30),
               p.ids[1], (array[1, 3, 4, 5])[1 + g % 4], now() - make_interval(secs => g * 30)
        from generate_series(${from}, ${to}) g, p`),
    );
  }
  return { minUnit };
}

async function benchEngine(engine: 'postgres' | 'pglite', databaseUrl?: string) {
  const database = await openDatabase({ databaseUrl });
  const { db } = database;
  try {
    log(`${engine}: seeding the demo estate`);
    await seedDemo(db);
    const [estate] = await queryRows<{ company_id: number; id: number }>(
      db,
      sql`select company_id, id from housing_estate order by id limit 1`,
    );
    const tenant = { companyId: estate.company_id, housingEstateId: estate.id };
    const started = performance.now();
    log(`${engine}: adding ${HOUSES} units, ${LINKS} links, ${HISTORY} history rows`);
    const { minUnit } = await fill(db, estate.id, estate.company_id);
    for (const t of ['unit', 'person_house', 'person_house_history']) await db.execute(sql.raw(`vacuum analyze ${t}`));
    const seedSeconds = round((performance.now() - started) / 1000);
    const house = minUnit + Math.floor(HOUSES / 2);
    const all = [1, 2, 3];
    log(`${engine}: measuring`);
    const figures = {
      reviewFirstPage: await time(() => reviewPage(db, tenant, all, { page: 1, limit: 10 })),
      reviewDeepPage: await time(() => reviewPage(db, tenant, all, { page: 50, limit: 10 })),
      reviewOwnersUnits: await time(() =>
        reviewPage(db, tenant, all, { page: 1, limit: 10, houseType: 1, identity: 1 }),
      ),
      reviewCertifiedPage: await time(() => reviewPage(db, tenant, all, { page: 1, limit: 10, status: 2 })),
      // Pending links are g % 200 = 0 (HC-B1200, HC-B12000, HC-B31200 …): the keyword finds real rows.
      reviewKeyword: await time(() => reviewPage(db, tenant, all, { page: 1, limit: 10, keyword: 'HC-B1200' })),
      // The certified tab holds nearly every link: HC-B12345 and HC-B123450 … HC-B123459.
      reviewCertifiedKeyword: await time(() =>
        reviewPage(db, tenant, all, { page: 1, limit: 10, status: 2, keyword: 'HC-B12345' }),
      ),
      // A common surname: the demo estate's few persons hold every link, so 'Chan' matches thousands.
      reviewCertifiedName: await time(() =>
        reviewPage(db, tenant, all, { page: 1, limit: 10, status: 2, keyword: 'Chan' }),
      ),
      // The tabs' counts (person_house_total counters); total = the certified count.
      reviewTabCounts: await time(async () => ({ total: (await reviewTotals(db, tenant, all)).certified })),
      memberPage: await time(() => memberPage(db, tenant, { houseType: 1, houseId: house, page: 1, limit: 10 })),
      memberPageWithPending: await time(() =>
        memberPage(db, tenant, { houseType: 1, houseId: house, withPending: true, page: 1, limit: 10 }),
      ),
      historyPage: await time(() => historyPage(db, tenant, { houseType: 1, houseId: house, page: 1, limit: 10 })),
    };
    // A case that finds nothing measures nothing: every case must match real rows.
    const empty = Object.entries(figures).filter(([, f]) => f.total === 0);
    if (empty.length) throw new Error(`cases without rows: ${empty.map(([k]) => k).join(', ')}`);
    return { seedSeconds, ...figures };
  } finally {
    await database.close();
  }
}

const result: Record<string, unknown> = {
  bench: 'owners',
  houses: HOUSES,
  personHouseRows: LINKS,
  historyRows: HISTORY,
  runs: RUNS,
  targetP95Ms: 25,
};
const pgSchema = await postgresSchema();
if (pgSchema) {
  try {
    result.postgres = await benchEngine('postgres', pgSchema.url);
  } finally {
    if (process.env.BENCH_KEEP === '1') log(`kept ${pgSchema.url}`);
    else await pgSchema.drop();
  }
} else {
  log('no PostgreSQL reachable: measuring PGlite only');
  result.postgres = null;
}
if (process.env.BENCH_SKIP_PGLITE !== '1') result.pglite = await benchEngine('pglite');
console.log(JSON.stringify(result));
