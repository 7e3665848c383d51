// Enterprise management at scale (issue 30 budget), run by `npm run bench enterprise`. Seeds the
// demo estate, adds BENCH_DEPARTMENTS departments (default 500, in a tree of three levels) and
// BENCH_STAFF staff (default 5,000, one in ten without a department) with generate_series, then
// times the staff views (page/v1 first and deep page, keyword: a staff number, a name, a phone and
// a common word, v2 one department, v3 without a department, v4 with an account), the department list the tree is built
// from, and the account tab over BENCH_STAFF console accounts (first and deep page, keyword, one role), on
// PostgreSQL (a fresh schema, dropped afterwards) and, unless BENCH_SKIP_PGLITE=1, on PGlite.
// Budget: p95 < 25 ms on PostgreSQL. One JSON line on stdout.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { benchLog, postgresSchema, round, timeList } from './kit';
import { openDatabase } from '../src/db/open-database';
import { queryRows } from '../src/db/sql';
import { pageAccounts } from '../src/modules/account/account.repository';
import { allDepartments, pageStaff } from '../src/modules/enterprise/enterprise.repository';
import { createBenchStaff } from './bench-staff';
import { seedDemo } from '../src/seed/seed-demo';

const DEPARTMENTS = Number(process.env.BENCH_DEPARTMENTS ?? 500);
const STAFF = Number(process.env.BENCH_STAFF ?? 5_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const log = benchLog('enterprise');

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
    const [{ max }] = await queryRows<{ max: number }>(
      db,
      sql`select coalesce(max(id), 0)::int as max from department`,
    );
    // Ten top departments, each with sub-departments, each of those with their own.
    await db.execute(
      sql.raw(`insert into department (id, company_id, housing_estate_id, name, parent_id, sort)
        select ${max} + g, ${tenant.companyId}, ${tenant.housingEstateId}, 'Bench dept ' || g,
               case when g <= 10 then null when g <= 100 then ${max} + 1 + g % 10 else ${max} + 11 + g % 90 end, g
        from generate_series(1, ${DEPARTMENTS}) g`),
    );
    await db.execute(
      sql.raw(`select setval(pg_get_serial_sequence('department', 'id'), (select max(id) from department))`),
    );
    const [{ maxPerson }] = await queryRows<{ maxPerson: number }>(
      db,
      sql`select max(id)::int as "maxPerson" from person`,
    );
    await db.execute(
      sql.raw(`insert into person (id, company_id, housing_estate_id, name, gender, tel, account_type)
        select ${maxPerson} + g, ${tenant.companyId}, ${tenant.housingEstateId}, 'Bench staff ' || g, 1 + g % 2,
               '9' || lpad(g::text, 7, '0'), 4
        from generate_series(1, ${STAFF}) g`),
    );
    await db.execute(sql.raw(`select setval(pg_get_serial_sequence('person', 'id'), (select max(id) from person))`));
    await db.execute(
      sql.raw(`insert into person_company (company_id, housing_estate_id, person_id, staff_number, position,
                                           year_of_birth, department_id, company_type)
        select ${tenant.companyId}, ${tenant.housingEstateId}, ${maxPerson} + g, 'BS' || lpad(g::text, 5, '0'),
               'Position ' || g % 20, 1960 + g % 40, case when g % 10 = 0 then null else ${max} + 1 + g % ${DEPARTMENTS} end, 2
        from generate_series(1, ${STAFF}) g`),
    );
    // As many console accounts (with their persons), holding the administrator's role.
    await createBenchStaff(db, STAFF);
    const [{ roleId }] = await queryRows<{ roleId: number }>(
      db,
      sql`select role_id as "roleId" from account where username = 'admin'`,
    );
    for (const t of ['department', 'person', 'person_company', 'account']) await db.execute(sql.raw(`analyze ${t}`));
    const seedSeconds = round((performance.now() - started) / 1000);
    const time = (run: () => Promise<{ total: number }>) => timeList(run, RUNS);
    log(`${engine}: measuring`);
    const figures = {
      staffFirstPage: await time(() => pageStaff(db, tenant, {}, 1, 10)),
      staffDeepPage: await time(() => pageStaff(db, tenant, {}, 400, 10)),
      staffKeyword: await time(() => pageStaff(db, tenant, { keyword: 'BS0123' }, 1, 10)),
      // By name, by phone, and a common word (position: more than half the staff match).
      staffKeywordName: await time(() => pageStaff(db, tenant, { keyword: 'staff 123' }, 1, 10)),
      staffKeywordPhone: await time(() => pageStaff(db, tenant, { keyword: '000432' }, 1, 10)),
      staffKeywordCommon: await time(() => pageStaff(db, tenant, { keyword: 'position 1' }, 1, 10)),
      staffOfDepartmentTree: await time(() =>
        pageStaff(db, tenant, { departmentIds: [max + 2, max + 12, max + 22, max + 102] }, 1, 10),
      ),
      staffWithoutDepartment: await time(() => pageStaff(db, tenant, { withoutDepartment: true }, 1, 10)),
      staffWithAccount: await time(() => pageStaff(db, tenant, { withAccount: true }, 1, 10)),
      departments: await time(async () => ({ total: (await allDepartments(db, tenant)).length })),
      // The account tab: first page, deep page, a keyword (name or account name) and one role's holders.
      accountsFirstPage: await time(() => pageAccounts(db, tenant, { limit: 10, offset: 0 })),
      accountsDeepPage: await time(() => pageAccounts(db, tenant, { limit: 10, offset: 4_000 })),
      accountsKeyword: await time(() => pageAccounts(db, tenant, { keyword: 'bench123', limit: 10, offset: 0 })),
      accountsOfRole: await time(() => pageAccounts(db, tenant, { roleId, limit: 10, offset: 0 })),
    };
    const empty = Object.entries(figures).filter(([, f]) => f.total === 0);
    if (empty.length) throw new Error(`cases without rows: ${empty.map(([k]) => k).join(', ')}`);
    return { seedSeconds, ...figures };
  } finally {
    await database.close();
  }
}

const result: Record<string, unknown> = {
  bench: 'enterprise',
  departments: DEPARTMENTS,
  staff: STAFF,
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
