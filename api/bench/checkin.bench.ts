// Staff check-in at scale (issue 32 budgets), run by `npm run bench checkin`. Seeds the demo
// estate, adds BENCH_STAFF staff (default 2,000) to its Security department and a punch-in and
// punch-out for each of the last 31 days (generate_series), then times: the month's missing-card
// computation (every day of the range computed and stored, budget < 5 s), the lists and filters
// (budget p95 < 25 ms), the board's load (budget p95 < 50 ms) and the open days made sure of
// before a list (computed cold, and kept for a repeated call) — on PostgreSQL (a fresh schema,
// dropped afterwards). One JSON line on stdout.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { benchLog, postgresSchema, round, timeList, timeRuns } from './kit';
import { openDatabase } from '../src/db/open-database';
import { queryRows } from '../src/db/sql';
import type { AuthedContext } from '../src/http/request-context';
import { addDays } from '../src/modules/checkin/checkin-rules';
import * as repo from '../src/modules/checkin/checkin.repository';
import { board, ensureDays } from '../src/modules/checkin/checkin.service';
import { seedDemo } from '../src/seed/seed-demo';

const STAFF = Number(process.env.BENCH_STAFF ?? 2_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const log = benchLog('checkin');

async function bench(url: string) {
  const database = await openDatabase({ databaseUrl: url });
  const { db } = database;
  try {
    log('seeding the demo estate');
    await seedDemo(db);
    const [e] = await queryRows<{ company_id: number; id: number; dept: number; reviewer: number; today: string }>(
      db,
      sql`select he.company_id, he.id, (now() at time zone he.time_zone)::date::text as today,
                 (select d.id from department d where d.housing_estate_id = he.id order by d.sort limit 1 offset 1) as dept,
                 (select p.id from person p where p.housing_estate_id = he.id order by p.id limit 1) as reviewer
          from housing_estate he order by he.id limit 1`,
    );
    const tenant = { companyId: e.company_id, housingEstateId: e.id };
    const seeded = performance.now();
    log(`adding ${STAFF} staff and 31 days of punches`);
    await db.execute(sql`
      with p as (insert into person (company_id, housing_estate_id, name)
                 select ${e.company_id}, ${e.id}, 'Bench staff ' || g from generate_series(1, ${STAFF}) g returning id)
      insert into person_company (company_id, housing_estate_id, person_id, department_id)
      select ${e.company_id}, ${e.id}, id, ${e.dept} from p`);
    // The Security rule of the demo: 08:00–12:00 and 13:00–17:00, Monday to Saturday (Hong Kong).
    await db.execute(sql`
      insert into checkin_punch (company_id, housing_estate_id, person_id, kind, at, in_place, idempotency_key)
      select ${e.company_id}, ${e.id}, pc.person_id, k.kind,
             ((${e.today}::date - d)::timestamp + k.t + make_interval(mins => (pc.person_id % 13) - 4)) at time zone 'Asia/Hong_Kong',
             true, 'bench-' || pc.person_id || '-' || d || '-' || k.n
      from person_company pc, generate_series(1, 31) d,
           (values (1, 'in', time '08:00'), (2, 'out', time '12:00'), (3, 'in', time '13:00'), (4, 'out', time '17:00')) k(n, kind, t)
      where pc.housing_estate_id = ${e.id} and pc.department_id = ${e.dept} and pc.person_id % 17 <> d % 17`);
    // What autovacuum does within a minute of such a load: without it the planner takes the 2,000
    // new staff for a handful and joins whole tables.
    await db.execute(sql`vacuum analyze checkin_punch`);
    await db.execute(sql`analyze person`);
    await db.execute(sql`analyze person_company`);
    const seedSeconds = round((performance.now() - seeded) / 1000);
    const from = addDays(e.today, -31);
    const to = addDays(e.today, -1);
    log('computing the month');
    await db.execute(sql`delete from checkin_closed_day`);
    await db.execute(sql`delete from checkin_day`);
    const started = performance.now();
    await ensureDays(db, tenant, from, to);
    const monthSeconds = round((performance.now() - started) / 1000);
    await db.execute(sql`vacuum analyze checkin_day`);
    await db.execute(sql`analyze checkin_day_total`);
    await db.execute(sql`analyze checkin_month_total`);
    const [{ n: dayRows }] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from checkin_day`);
    // Make-up requests: 5% of the month's shifts with a problem (late, left early, a punch
    // missing, absent), in bulk like the punches: the last week's still pending, older ones
    // approved, refused (one in four) or, one in ten, never reviewed.
    log('adding make-up requests');
    await db.execute(sql`
      insert into checkin_makeup (company_id, housing_estate_id, person_id, day, shift, kind, at, reason, status,
                                  reviewer_person_id, review_note, reviewed_at, created_at)
      select x.company_id, x.housing_estate_id, x.person_id, x.day, x.shift,
             case when x.state = 'missingOut' or x.left_early then 'out' else 'in' end,
             case when x.state = 'missingOut' or x.left_early then x.end_at else x.start_at end,
             'Forgot my card (bench)', m.status,
             case when m.status = 1 then null else ${e.reviewer}::int end,
             case when m.status = 3 then 'No witness (bench)' end,
             case when m.status = 1 then null else x.end_at + interval '1 day' end,
             x.end_at + make_interval(mins => 30 + m.h)
      from checkin_day x,
           lateral (select (x.person_id * 31 + (x.day - date '2000-01-01') * 7 + x.shift) % 100 as h) hh,
           lateral (select hh.h, (x.person_id + (x.day - date '2000-01-01')) % 12 as g) gg,
           lateral (select hh.h,
                           case when x.day > ${e.today}::date - 7 or gg.g = 0 then 1 when gg.g <= 3 then 3 else 2 end
                             as status) m
      where x.housing_estate_id = ${e.id} and (x.late or x.left_early or x.state in ('missingIn', 'missingOut', 'absent'))
        and hh.h % 20 = 0`);
    await db.execute(sql`vacuum analyze checkin_makeup`);
    const [mk] = await queryRows<{ n: number; pending: number; person: number }>(
      db,
      sql`select count(*)::int as n, count(*) filter (where status = 1)::int as pending,
                 (select person_id from checkin_makeup where housing_estate_id = ${e.id}
                  group by person_id order by count(*) desc, person_id limit 1) as person
          from checkin_makeup where housing_estate_id = ${e.id}`,
    );
    const { timeZone } = await repo.estateClock(db, e.id);
    const page = { page: 1, limit: 10 };
    const ctx = { db, tenant } as unknown as AuthedContext;
    log('measuring');
    const figures = {
      punchPage: await timeList(() => repo.pagePunches(db, tenant, timeZone, page), RUNS),
      punchPageFiltered: await timeList(
        () => repo.pagePunches(db, tenant, timeZone, { ...page, departmentId: e.dept, startDate: from, endDate: from }),
        RUNS,
      ),
      dayPage: await timeList(() => repo.pageDays(db, tenant, { ...page, startDate: from, endDate: to }), RUNS),
      dayPageLate: await timeList(
        () => repo.pageDays(db, tenant, { ...page, problem: 'late', startDate: from, endDate: to }),
        RUNS,
      ),
      monthPage: await timeList(() => repo.pageMonth(db, tenant, { ...page, month: from.slice(0, 7) }), RUNS),
      // The make-up requests a supervisor reviews (POST /base/checkin/makeup/page): the first page,
      // a page in the middle, and each filter (status, person, name, days) alone and the usual
      // pending-of-the-week view.
      makeupPage: await timeList(() => repo.pageMakeups(db, tenant, page), RUNS),
      makeupPageDeep: await timeList(
        () => repo.pageMakeups(db, tenant, { ...page, page: Math.max(1, Math.floor(mk.n / 20)) }),
        RUNS,
      ),
      makeupPending: await timeList(() => repo.pageMakeups(db, tenant, { ...page, status: 1 }), RUNS),
      makeupApproved: await timeList(() => repo.pageMakeups(db, tenant, { ...page, status: 2 }), RUNS),
      makeupPerson: await timeList(() => repo.pageMakeups(db, tenant, { ...page, personId: mk.person }), RUNS),
      makeupKeyword: await timeList(() => repo.pageMakeups(db, tenant, { ...page, keyword: 'staff 7' }), RUNS),
      makeupDay: await timeList(
        () => repo.pageMakeups(db, tenant, { ...page, startDate: addDays(from, 10), endDate: addDays(from, 10) }),
        RUNS,
      ),
      makeupPendingWeek: await timeList(
        () => repo.pageMakeups(db, tenant, { ...page, status: 1, startDate: addDays(to, -6), endDate: to }),
        RUNS,
      ),
      board: await timeRuns(() => board(ctx).then((b) => ({ total: b.rows.length })), { runs: RUNS }),
      // What the missing-card and month calls do before reading: make sure the open days
      // (yesterday and today, 2 × BENCH_STAFF people) are computed — not part of the lists'
      // figures above. Cold: computed every time (their record in checkin_open_day forgotten
      // first); repeated: kept from the read before (how it is between punches and rule changes).
      openDaysCold: await timeList(
        () =>
          db
            .execute(sql`delete from checkin_open_day`)
            .then(() => ensureDays(db, tenant, to, e.today))
            .then(() => ({ total: 2 })),
        10,
      ),
      openDaysRepeated: await timeList(() => ensureDays(db, tenant, to, e.today).then(() => ({ total: 2 })), RUNS),
    };
    return {
      seedSeconds,
      monthSeconds,
      dayRows,
      makeups: mk.n,
      makeupsPending: mk.pending,
      ...figures,
      board: { ...figures.board, last: undefined },
    };
  } finally {
    await database.close();
  }
}

const result: Record<string, unknown> = {
  bench: 'checkin',
  staff: STAFF,
  days: 31,
  runs: RUNS,
  targets: { monthSeconds: 5, listP95Ms: 25, boardP95Ms: 50 },
};
const pgSchema = await postgresSchema();
if (!pgSchema) throw new Error('no PostgreSQL reachable');
try {
  result.postgres = await bench(pgSchema.url);
} finally {
  // BENCH_KEEP_SCHEMA=1 keeps the data for EXPLAIN (ANALYZE, BUFFERS) of the lists (drop it by hand).
  if (process.env.BENCH_KEEP_SCHEMA) log(`schema kept: ${pgSchema.url}`);
  else await pgSchema.drop();
}
console.log(JSON.stringify(result));
