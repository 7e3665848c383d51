// The audit trail's list at scale (issue 30 budget: every list and filter p95 < 25 ms on
// PostgreSQL), run by `npm run bench audit`. Seeds the demo estate, adds BENCH_AUDIT_EVENTS events
// (default 200,000: nine in ten of the demo estate, over a year, 20 actors, every kind) with
// generate_series, then times the list (first and deep page) and each filter (kind, actor, actor
// name: one actor, eleven, page 5, with a month; one day and one month of the estate's days, all together), on PostgreSQL (a fresh schema,
// dropped afterwards) and, unless BENCH_SKIP_PGLITE=1, on PGlite. One JSON line on stdout.
import { sql } from 'drizzle-orm';
import { AUDIT_KINDS } from '@pm/shared';
import { benchLog, postgresSchema, round, runBench, timeList } from './kit';
import { openDatabase } from '../src/db/open-database';
import { queryRows } from '../src/db/sql';
import { pageAudit } from '../src/modules/audit/audit.repository';
import { seedDemo } from '../src/seed/seed-demo';

const EVENTS = Number(process.env.BENCH_AUDIT_EVENTS ?? 200_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const log = benchLog('audit');

async function benchEngine(engine: 'postgres' | 'pglite', databaseUrl?: string) {
  const database = await openDatabase({ databaseUrl });
  const { db } = database;
  try {
    log(`${engine}: seeding the demo estate and ${EVENTS} events`);
    await seedDemo(db);
    const [estate] = await queryRows<{ company_id: number; id: number }>(
      db,
      sql`select company_id, id from housing_estate order by id limit 1`,
    );
    const tenant = { companyId: estate.company_id, housingEstateId: estate.id };
    const started = Date.now();
    const kinds = `array[${AUDIT_KINDS.map((k) => `'${k}'`).join(',')}]`;
    // One in ten belongs to another company; times spread over the last 365 days.
    await db.execute(
      sql.raw(`insert into audit_event (company_id, housing_estate_id, actor_account_id, actor_name, created_at,
                                        kind, entity_id, action, before, after, summary)
        select case when g % 10 = 0 then ${tenant.companyId} + 1000 else ${tenant.companyId} end,
               case when g % 10 = 0 then ${tenant.housingEstateId} + 1000 else ${tenant.housingEstateId} end,
               1 + g % 20, 'Actor ' || (1 + g % 20), now() - (g * (365.0 * 86400 / ${EVENTS})) * interval '1 second',
               (${kinds})[1 + g % ${AUDIT_KINDS.length}], g % 5000, 'update',
               jsonb_build_object('name', 'Before ' || g), jsonb_build_object('name', 'After ' || g), 'Record ' || g
        from generate_series(1, ${EVENTS}) g`),
    );
    await db.execute(sql.raw('analyze audit_event'));
    const seedSeconds = round((Date.now() - started) / 1000);
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    const time = (f: Parameters<typeof pageAudit>[2], page = 1) =>
      timeList(() => pageAudit(db, tenant, f, page, 10), RUNS);
    log(`${engine}: measuring`);
    const figures = {
      firstPage: await time({}),
      deepPage: await time({}, 500),
      kind: await time({ kind: 'staff' }),
      actor: await time({ actorAccountId: 7 }),
      actorName: await time({ actor: 'Actor 7' }),
      // A name eleven actors match (Actor 1, 10 … 19), a later page, and with a month.
      actorNameMany: await time({ actor: 'Actor 1' }),
      actorNamePage5: await time({ actor: 'Actor 7' }, 5),
      actorNameMonth: await time({ actor: 'Actor 7', startTime: day(60), endTime: day(30) }),
      oneDay: await time({ startTime: day(30), endTime: day(30) }),
      oneMonth: await time({ startTime: day(60), endTime: day(30) }),
      kindActorMonth: await time({ kind: 'role', actorAccountId: 2, startTime: day(200), endTime: day(170) }),
    };
    const empty = Object.entries(figures).filter(([, f]) => f.total === 0);
    if (empty.length) throw new Error(`cases without rows: ${empty.map(([k]) => k).join(', ')}`);
    return { seedSeconds, ...figures };
  } finally {
    await database.close();
  }
}

runBench('audit', async () => {
  const result: Record<string, unknown> = { bench: 'audit', events: EVENTS, runs: RUNS, targetP95Ms: 25 };
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
  return result;
});
