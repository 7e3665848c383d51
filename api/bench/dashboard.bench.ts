// The dashboard's queries at scale (issue 22), run by `npm run bench dashboard`. Seeds the demo
// estate, adds BENCH_ROWS (default 1,000,000) complaints and as many work orders to its first
// estate with generate_series (as worklist.bench.ts does), then times every query a dashboard's
// first render makes: the unfinished complaints and work orders (listByDashboard), their status
// totals, the charts over 7 and 30 days, the latest announcements, disaster warnings, open SOS
// calls, pending join requests and owner replacements; and all of them at once, as the page
// asks. PostgreSQL only (a fresh schema on BENCH_DATABASE_URL / TEST_DATABASE_URL / the local
// server, dropped afterwards). Budget: p95 < 25 ms per query. Prints exactly one JSON line.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { COMPLAINT, EVENT_ORDER, type WorkKind } from '@pm/shared';
import { benchLog, postgresSchema, round, timeRuns } from './kit';
import { openDatabase, type Db } from '../src/db/open-database';
import { queryRows } from '../src/db/sql';
import { listAnnouncements } from '../src/modules/announcement/announcement.repository';
import { listOpenSos, listWarnings } from '../src/modules/disaster/disaster.repository';
import { reviewPage } from '../src/modules/person/house-people.repository';
import { ownerChanges } from '../src/modules/person/owner-changes.repository';
import { dashboardWork, statusTotals, workStats } from '../src/modules/work-orders/work-orders.repository';
import { seedDemo } from '../src/seed/seed-demo';
import type { TenantScope } from '../src/http/request-context';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const CHUNK = 100_000;
const WIDGET_ROWS = 5;
const BUDGET_MS = 25;
const log = benchLog('dashboard');

/** Adds `ROWS` rows to the kind's table, one every 30 s back from now, 70 % completed, 20 % processing. */
async function fill(db: Db, k: WorkKind, estateId: number): Promise<void> {
  const extraColumns = k.hasType ? ', type' : '';
  const extraValues = k.hasType ? ', 1 + (g / 10) % 5' : '';
  for (let from = 1; from <= ROWS; from += CHUNK) {
    const to = Math.min(ROWS, from + CHUNK - 1);
    await db.execute(
      sql.raw(`
      with t as (select row_number() over (order by id) - 1 as k, * from ${k.sql.table} where housing_estate_id = ${estateId}),
           n as (select count(*)::int as c from t)
      insert into ${k.sql.table} (company_id, housing_estate_id, name, note, report_person_id, person_type, person_identity,
                              unit_id, car_space_id, shop_id, report_time, deal_time, complete_time,
                              ${k.sql.codeColumn}, ${k.sql.statusColumn}${extraColumns})
      select t.company_id, t.housing_estate_id, 'Bench report #' || g, 'bench row', t.report_person_id, t.person_type,
             t.person_identity, t.unit_id, t.car_space_id, t.shop_id,
             now() - make_interval(secs => g * 30),
             case when g % 10 < 9 then now() - make_interval(secs => g * 30 - 1800) end,
             case when g % 10 < 7 then now() - make_interval(secs => g * 30 - 7200) end,
             '${k === COMPLAINT ? 'BC' : 'BE'}' || lpad(g::text, 8, '0'),
             case when g % 10 < 7 then 3 when g % 10 < 9 then 2 else 1 end${extraValues}
      from generate_series(${from}, ${to}) g join t on t.k = g % (select c from n)`),
    );
  }
}

interface Figures {
  p50: number;
  p95: number;
  max: number;
}

async function time(run: () => Promise<unknown>): Promise<Figures> {
  const { p50, p95, max } = await timeRuns(run, { runs: RUNS });
  return { p50, p95, max };
}

/** Every query of the dashboard's first render, by name. */
function dashboardQueries(db: Db, tenant: TenantScope): Record<string, () => Promise<unknown>> {
  const kinds = { complaint: COMPLAINT, eventOrder: EVENT_ORDER } as const;
  const q: Record<string, () => Promise<unknown>> = {};
  for (const [name, k] of Object.entries(kinds)) {
    q[`${name}.listByDashboard`] = () => dashboardWork(db, k, tenant, WIDGET_ROWS);
    q[`${name}.statusTotals`] = () => statusTotals(db, k, tenant);
    q[`${name}.stats7`] = () => workStats(db, k, tenant, 7);
    q[`${name}.stats30`] = () => workStats(db, k, tenant, 30);
  }
  q.announcements = () => listAnnouncements(db, tenant, { revoked: 0 }, WIDGET_ROWS, 0);
  q.warnings = () => listWarnings(db, tenant, { page: 1, limit: WIDGET_ROWS });
  q.openSos = () => listOpenSos(db, tenant);
  q.joinRequests = () => reviewPage(db, tenant, [1, 2, 3], { page: 1, limit: WIDGET_ROWS, status: 1 });
  q.ownerChanges = () => ownerChanges(db, tenant, [1, 2, 3], WIDGET_ROWS);
  return q;
}

async function bench(databaseUrl: string) {
  const database = await openDatabase({ databaseUrl });
  const { db } = database;
  try {
    log('seeding the demo estate');
    await seedDemo(db);
    const [estate] = await queryRows<{ company_id: number; id: number }>(
      db,
      sql`select company_id, id from housing_estate order by id limit 1`,
    );
    const tenant = { companyId: estate.company_id, housingEstateId: estate.id };
    const started = performance.now();
    for (const k of [COMPLAINT, EVENT_ORDER]) {
      log(`adding ${ROWS} rows to ${k.sql.table}`);
      await fill(db, k, estate.id);
    }
    // The status totals come from the work_total counters the triggers keep.
    await db.execute(sql`vacuum analyze complain`);
    await db.execute(sql`vacuum analyze event_order`);
    const seedSeconds = round((performance.now() - started) / 1000);
    log('measuring');
    const queries = dashboardQueries(db, tenant);
    const figures: Record<string, Figures> = {};
    for (const [name, run] of Object.entries(queries)) figures[name] = await time(run);
    // The page asks for all of them at once (one pool): the slowest answer is what a person waits for.
    const all = await time(() => Promise.all(Object.values(queries).map((run) => run())));
    const worstP95 = Math.max(...Object.values(figures).map((f) => f.p95));
    const over = Object.entries(figures)
      .filter(([, f]) => f.p95 >= BUDGET_MS)
      .map(([name]) => name);
    return { seedSeconds, queries: figures, allAtOnce: all, worstP95, withinBudget: over.length === 0, over };
  } finally {
    await database.close();
  }
}

const result: Record<string, unknown> = {
  bench: 'dashboard',
  rowsPerTable: ROWS,
  widgetRows: WIDGET_ROWS,
  runs: RUNS,
  targetP95Ms: BUDGET_MS,
};
const pgSchema = await postgresSchema();
if (!pgSchema) {
  log('no PostgreSQL reachable (BENCH_DATABASE_URL / TEST_DATABASE_URL)');
  result.postgres = null;
} else {
  try {
    result.postgres = await bench(pgSchema.url);
  } finally {
    await pgSchema.drop();
  }
}
result.loadAverage = (await import('node:os')).loadavg().map(round);
console.log(JSON.stringify(result));
