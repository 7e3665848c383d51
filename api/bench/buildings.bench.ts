// Buildings at scale (issue 18), run by `npm run bench buildings`. Prints exactly one JSON line.
//  1. Lists: the demo estate plus BENCH_UNITS (100,000) units, BENCH_SPACES (20,000) spaces and
//     BENCH_SHOPS (5,000) shops, on PostgreSQL (a fresh schema on BENCH_DATABASE_URL /
//     TEST_DATABASE_URL / the local server, dropped afterwards): p50/p95 of every list and filter
//     the screens send (target p95 < 25 ms). Skipped when no PostgreSQL is reachable.
//  2. On PGlite, through HTTP on an in-process api: an import of BENCH_IMPORT (10,000) units
//     (target < 10 s) and the batch QR PDF of BENCH_PDF (1,000) units (target < 10 s), each with
//     the process's peak RSS growth while it ran (memory bounded: the file and the PDF stream).
import { performance } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { benchLog, postgresSchema, round, timeList } from './kit';
import { openDatabase, type Db } from '../src/db/open-database';
import { queryRows } from '../src/db/sql';
import type { TenantScope } from '../src/http/request-context';
import { listShops, listSpaces, listUnits } from '../src/modules/property/property.repository';
import { seedDemo } from '../src/seed/seed-demo';
import { startTestApi } from '../test/kit/start-api';
import { signIn } from '../test/kit/session';

const UNITS = Number(process.env.BENCH_UNITS ?? 100_000);
const SPACES = Number(process.env.BENCH_SPACES ?? 20_000);
const SHOPS = Number(process.env.BENCH_SHOPS ?? 5_000);
const IMPORT = Number(process.env.BENCH_IMPORT ?? 10_000);
const PDF = Number(process.env.BENCH_PDF ?? 1_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const FLOORS_PER_BLOCK = 50;
const UNITS_PER_FLOOR = 20;
const log = benchLog('buildings');

const time = (run: () => Promise<{ total: number }>) => timeList(run, RUNS);

/** Blocks of 50 floors × 20 units, car parks of 2,000 spaces, shops: all with generate_series. */
async function fill(db: Db, t: TenantScope): Promise<{ blockId: number; floorId: number; carParkId: number }> {
  const blocks = Math.ceil(UNITS / (FLOORS_PER_BLOCK * UNITS_PER_FLOOR));
  const c = t.companyId;
  const e = t.housingEstateId;
  await db.execute(sql`insert into block (company_id, housing_estate_id, name, number, floor_count, units_per_floor)
    select ${c}, ${e}, 'Bench ' || b, 'B' || b, ${FLOORS_PER_BLOCK}, ${UNITS_PER_FLOOR} from generate_series(1, ${blocks}) b`);
  await db.execute(sql`insert into floor (company_id, housing_estate_id, block_id, name, number)
    select ${c}, ${e}, b.id, f::text, f from block b cross join generate_series(1, ${FLOORS_PER_BLOCK}) f
    where b.housing_estate_id = ${e} and b.name like 'Bench %'`);
  await db.execute(sql`insert into unit (company_id, housing_estate_id, block_id, floor_id, name, invite_code, house_status)
    select ${c}, ${e}, f.block_id, f.id, f.number || chr(64 + u), 'BENCHU' || f.id || '-' || u, 1 + (f.id + u) % 6
    from floor f join block b on b.id = f.block_id cross join generate_series(1, ${UNITS_PER_FLOOR}) u
    where b.name like 'Bench %' and b.housing_estate_id = ${e}`);
  await db.execute(sql`insert into car_park (company_id, housing_estate_id, name)
    select ${c}, ${e}, 'Bench park ' || p from generate_series(1, ${Math.ceil(SPACES / 2000)}) p`);
  await db.execute(sql`insert into car_space (company_id, housing_estate_id, car_park_id, carpark_code, type, plate, invite_code, house_status)
    select ${c}, ${e}, (select id from car_park where name = 'Bench park ' || (1 + g / 2000) and housing_estate_id = ${e}),
           'BP-' || g, 1 + g % 2, case when g % 3 = 0 then 'HK ' || g end, 'BENCHS' || g, 1 + g % 6
    from generate_series(0, ${SPACES - 1}) g`);
  await db.execute(sql`insert into shop (company_id, housing_estate_id, shop_code, name, invite_code, house_status)
    select ${c}, ${e}, 'BS-' || g, 'Bench shop ' || g, 'BENCHH' || g, 1 + g % 6 from generate_series(1, ${SHOPS}) g`);
  for (const table of ['block', 'floor', 'unit', 'car_park', 'car_space', 'shop', 'person_house'])
    await db.execute(sql.raw(`vacuum analyze ${table}`)); // as autovacuum leaves a settled estate
  const [ids] = await queryRows<{ block_id: number; floor_id: number; car_park_id: number }>(
    db,
    sql`select (select id from block where name = 'Bench 7' and housing_estate_id = ${e}) as block_id,
               (select f.id from floor f join block b on b.id = f.block_id where b.name = 'Bench 7' and f.number = 12 and b.housing_estate_id = ${e}) as floor_id,
               (select id from car_park where name = 'Bench park 3' and housing_estate_id = ${e}) as car_park_id`,
  );
  return { blockId: ids.block_id, floorId: ids.floor_id, carParkId: ids.car_park_id };
}

async function benchLists(databaseUrl: string) {
  const database = await openDatabase({ databaseUrl });
  const { db } = database;
  try {
    log('postgres: seeding the demo estate');
    await seedDemo(db);
    const [estate] = await queryRows<{ company_id: number; id: number }>(
      db,
      sql`select company_id, id from housing_estate order by id limit 1`,
    );
    const tenant = { companyId: estate.company_id, housingEstateId: estate.id };
    const started = performance.now();
    log(`postgres: adding ${UNITS} units, ${SPACES} spaces, ${SHOPS} shops`);
    const ids = await fill(db, tenant);
    const seedSeconds = round((performance.now() - started) / 1000);
    log('postgres: measuring');
    const units =
      (f: Parameters<typeof listUnits>[2], page = 1) =>
      () =>
        listUnits(db, tenant, f, 10, (page - 1) * 10).then((r) => ({ total: r.total }));
    const spaces =
      (f: Parameters<typeof listSpaces>[2], page = 1) =>
      () =>
        listSpaces(db, tenant, f, 10, (page - 1) * 10).then((r) => ({ total: r.total }));
    const shops =
      (f: Parameters<typeof listShops>[2], page = 1) =>
      () =>
        listShops(db, tenant, f, 10, (page - 1) * 10).then((r) => ({ total: r.total }));
    return {
      seedSeconds,
      units: {
        firstPage: await time(units({})),
        deepPage: await time(units({}, 5_000)),
        block: await time(units({ blockId: ids.blockId })),
        blockFloor: await time(units({ blockId: ids.blockId, floorId: ids.floorId })),
        status: await time(units({ houseStatus: 2 })),
        statusDeep: await time(units({ houseStatus: 2 }, 1_000)),
        keyword: await time(units({ keyword: '12C' })),
        keywordOwner: await time(units({ keyword: 'Chan' })),
      },
      spaces: {
        firstPage: await time(spaces({})),
        deepPage: await time(spaces({}, 1_000)),
        carPark: await time(spaces({ carParkId: ids.carParkId })),
        typeStatus: await time(spaces({ type: 2, houseStatus: 1 })),
        keyword: await time(spaces({ keyword: 'BP-1234' })),
      },
      shops: {
        firstPage: await time(shops({})),
        deepPage: await time(shops({}, 250)),
        status: await time(shops({ houseStatus: 3 })),
        keyword: await time(shops({ keyword: 'shop 4321' })),
      },
    };
  } finally {
    await database.close();
  }
}

/** Runs `work` while sampling the process's RSS; answers its seconds and the peak RSS growth in MB. */
async function measured<T>(work: () => Promise<T>): Promise<{ seconds: number; rssGrowthMb: number; answer: T }> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  try {
    const answer = await work();
    return {
      seconds: round((performance.now() - started) / 1000),
      rssGrowthMb: round((peak - base) / 2 ** 20),
      answer,
    };
  } finally {
    clearInterval(timer);
  }
}

async function benchFiles() {
  const api = await startTestApi('pglite');
  try {
    const admin = await signIn(api, 'admin');
    const floors = Math.min(200, IMPORT); // rows spread over the floors of one block
    const block = await admin.post('/base/block/save', {
      name: 'Import bench',
      number: 'IB',
      floorCount: floors,
      unitsPerFloor: 1,
    });
    if (block.status !== 200) throw new Error(`block: ${JSON.stringify(block.body)}`);
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Import');
    sheet.addRow(['Block', 'Floor', 'Unit', 'Rooms', 'Living rooms', 'Restrooms', 'Invite']);
    for (let i = 0; i < IMPORT; i++) sheet.addRow(['Import bench', String(1 + (i % floors)), `I${i}`, 3, 1, 2, 5]);
    const file = Buffer.from(await book.xlsx.writeBuffer());
    log(`pglite: importing ${IMPORT} units (${round(file.length / 1024)} KB)`);
    const imported = await measured(() =>
      api.http.post('/base/unit/import').set(admin.headers).attach('file', file, { filename: 'bench.xlsx' }),
    );
    if (imported.answer.status !== 200)
      throw new Error(`import: ${JSON.stringify(imported.answer.body).slice(0, 500)}`);

    const page = await admin.post('/base/unit/page', { blockId: block.body.data.blockId, page: 1, limit: 100 });
    const ids: number[] = [];
    for (let p = 1; ids.length < PDF; p++) {
      const r = await admin.post('/base/unit/page', { blockId: block.body.data.blockId, page: p, limit: 100 });
      ids.push(...r.body.data.list.map((u: { unitId: number }) => u.unitId));
      if (r.body.data.list.length === 0) break;
    }
    log(`pglite: batch QR PDF of ${PDF} units`);
    let bytes = 0;
    const pdf = await measured(() =>
      api.http
        .post('/base/unit/download/qrcodes')
        .set(admin.headers)
        .send({ ids: ids.slice(0, PDF) })
        .buffer(true)
        .parse((res, done) => {
          res.on('data', (c: Buffer) => (bytes += c.length)); // counted, not kept
          res.on('end', () => done(null, null));
        }),
    );
    if (pdf.answer.status !== 200) throw new Error(`pdf: ${pdf.answer.status}`);
    return {
      import: {
        rows: IMPORT,
        fileKb: round(file.length / 1024),
        seconds: imported.seconds,
        rssGrowthMb: imported.rssGrowthMb,
        written: imported.answer.body.data.written,
        targetSeconds: 10,
        listedAfter: page.body.data.total,
      },
      qrPdf: {
        units: PDF,
        pages: Math.ceil(PDF / 12),
        mb: round(bytes / 2 ** 20),
        seconds: pdf.seconds,
        rssGrowthMb: pdf.rssGrowthMb,
        targetSeconds: 10,
      },
    };
  } finally {
    await api.close();
  }
}

const result: Record<string, unknown> = {
  bench: 'buildings',
  units: UNITS,
  spaces: SPACES,
  shops: SHOPS,
  pageSize: 10,
  runs: RUNS,
  targetP95Ms: 25,
};
if (process.env.BENCH_SKIP_LISTS !== '1') {
  const schema = await postgresSchema();
  if (schema) {
    try {
      result.postgres = await benchLists(schema.url);
    } finally {
      await schema.drop();
    }
  } else {
    log('no PostgreSQL reachable: lists not measured');
    result.postgres = null;
  }
}
if (process.env.BENCH_SKIP_FILES !== '1') result.pglite = await benchFiles();
console.log(JSON.stringify(result));
process.exit(0);
