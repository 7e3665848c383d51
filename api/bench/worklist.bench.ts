// Complaint and work-order lists at scale (issue 7, DESIGN §6), run by `npm run bench worklist`.
// Seeds the demo estate, adds BENCH_ROWS (default 1,000,000) complaints and as many work orders
// to its first estate with generate_series, then times the console's queries — first page, a
// deep page, filtered pages, keyword search and status totals — on PostgreSQL (a fresh schema on
// BENCH_DATABASE_URL / TEST_DATABASE_URL / the local server, dropped afterwards) and on PGlite.
// Prints exactly one JSON line on stdout; progress goes to stderr.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { benchLog, postgresSchema, round, timeRuns, type Timing } from './kit';
import { openDatabase, type Db } from '../src/db/open-database';
import { queryRows } from '../src/db/sql';
import { COMPLAINT, EVENT_ORDER, type WorkKind } from '@pm/shared';
import { listWork, statusTotals, type WorkFilter } from '../src/modules/work-orders/work-orders.repository';
import { seedDemo } from '../src/seed/seed-demo';
import type { TenantScope } from '../src/http/request-context';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const CHUNK = 100_000;
const PAGE = 10;
const DEEP_PAGE = 5_000;
const log = benchLog('worklist');

/** Adds `ROWS` rows to the kind's table, cycling through the estate's demo rows as templates. */
async function fill(db: Db, k: WorkKind, estateId: number): Promise<void> {
  const codePrefix = k === COMPLAINT ? 'BC' : 'BE';
  const extraColumns = k.hasType ? ', type' : '';
  const extraValues = k.hasType ? ', 1 + (g / 10) % 5' : '';
  for (let from = 1; from <= ROWS; from += CHUNK) {
    const to = Math.min(ROWS, from + CHUNK - 1);
    await db.execute(
      sql.raw(`
      with t as (select row_number() over (order by id) - 1 as k, * from ${k.sql.table} where housing_estate_id = ${estateId}),
           n as (select count(*)::int as c from t)
      insert into ${k.sql.table} (company_id, housing_estate_id, name, note, report_person_id, person_type, person_identity,
                              unit_id, car_space_id, shop_id, report_time, ${k.sql.codeColumn}, ${k.sql.statusColumn}${extraColumns})
      select t.company_id, t.housing_estate_id,
             (array['Water leaking from the ceiling', 'Noise from the flat above', 'Lift out of order', 'Parking space taken', 'Corridor light broken'])[1 + g % 5] || ' #' || g,
             'bench row', t.report_person_id, t.person_type, t.person_identity, t.unit_id, t.car_space_id, t.shop_id,
             now() - make_interval(secs => g * 30), '${codePrefix}' || lpad(g::text, 8, '0'),
             case when g % 10 < 7 then 3 when g % 10 < 9 then 2 else 1 end${extraValues}
      from generate_series(${from}, ${to}) g join t on t.k = g % (select c from n)`),
    );
  }
}

/** p50/p95 of a call, with what it matched: a list's `total`, or the sum of status totals. */
async function time(run: () => Promise<object>): Promise<Timing & { total: number }> {
  const { p50, p95, last } = await timeRuns(run, { runs: RUNS });
  const total = 'total' in last ? Number(last.total) : Object.values(last).reduce((a, b) => a + b, 0);
  return { p50, p95, total };
}

async function measureKind(db: Db, k: WorkKind, tenant: TenantScope) {
  const week = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
  const today = new Date().toISOString().slice(0, 10);
  const list =
    (f: WorkFilter, page = 1) =>
    () =>
      listWork(db, k, tenant, f, PAGE, (page - 1) * PAGE);
  const filtered: WorkFilter = k.hasType ? { status: 1, type: 2 } : { status: 2, houseType: 1 };
  return {
    listFirstPage: await time(list({})),
    listDeepPage: await time(list({}, DEEP_PAGE)),
    listFiltered: await time(list(filtered)),
    listFilteredDeep: await time(list(filtered, 500)),
    listLastWeek: await time(list({ startTime: week, endTime: today })),
    listKeyword: await time(list({ keyword: 'ceiling #12345' })),
    statusTotals: await time(() => statusTotals(db, k, tenant)),
  };
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
    for (const k of [COMPLAINT, EVENT_ORDER]) {
      log(`${engine}: adding ${ROWS} rows to ${k.sql.table}`);
      await fill(db, k, estate.id);
    }
    log(`${engine}: analyze`);
    await db.execute(sql`vacuum analyze complain`);
    await db.execute(sql`vacuum analyze event_order`);
    const seedSeconds = round((performance.now() - started) / 1000);
    log(`${engine}: measuring`);
    return {
      seedSeconds,
      complaint: await measureKind(db, COMPLAINT, tenant),
      eventOrder: await measureKind(db, EVENT_ORDER, tenant),
    };
  } finally {
    await database.close();
  }
}

const result: Record<string, unknown> = {
  bench: 'worklist',
  rowsPerTable: ROWS,
  pageSize: PAGE,
  deepPage: DEEP_PAGE,
  runs: RUNS,
  targetP95Ms: 25,
};
const pgSchema = await postgresSchema();
if (pgSchema) {
  try {
    result.postgres = await benchEngine('postgres', pgSchema.url);
  } finally {
    await pgSchema.drop();
  }
} else {
  log('no PostgreSQL reachable: measuring PGlite only');
  result.postgres = null;
}
if (process.env.BENCH_SKIP_PGLITE !== '1') result.pglite = await benchEngine('pglite');
console.log(JSON.stringify(result));
