// The staff import at scale (issue 30 budget: an import of 5,000 staff under 10 s on PGlite, memory
// bounded), run by `npm run bench staff-import`. On PGlite, through HTTP on an in-process api with
// the demo estate: BENCH_DEPARTMENTS (500) departments, then an Excel file of BENCH_IMPORT (5,000)
// staff (nine in ten in a department) checked (`?check=true`, the preview), imported (all new),
// and a corrected file imported (every row known, with a new name, phone and position: every staff
// member updated), each timed with the process's peak RSS growth while it ran; the staff list then
// finds the corrected staff by their new name (`listedAfter`).
// One JSON line on stdout.
import { performance } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { benchLog, round, runBench } from './kit';
import { queryRows } from '../src/db/sql';
import { startTestApi } from '../test/kit/start-api';
import { signIn } from '../test/kit/session';

const IMPORT = Number(process.env.BENCH_IMPORT ?? 5_000);
const DEPARTMENTS = Number(process.env.BENCH_DEPARTMENTS ?? 500);
const log = benchLog('staff-import');

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

runBench('staff-import', async () => {
  const api = await startTestApi('pglite');
  try {
    const admin = await signIn(api, 'admin');
    const companyId: number = (await admin.get(`/account/info/${admin.accId}`)).body.data.company.companyId;
    const [estate] = await queryRows<{ company_id: number; id: number }>(
      api.db,
      sql`select company_id, id from housing_estate where company_id = ${companyId} order by id limit 1`,
    );
    await api.db.execute(sql`insert into department (company_id, housing_estate_id, name, sort)
      select ${estate.company_id}, ${estate.id}, 'Import dept ' || g, g from generate_series(1, ${DEPARTMENTS}) g`);
    /** The file: `corrected` changes every row's name, phone and position (all known: all updated). */
    const staffFile = async (corrected: boolean) => {
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('Staff');
      sheet.addRow(['Staff number', 'Name', 'Gender', 'Phone', 'Position', 'Year of birth', 'Department']);
      for (let i = 1; i <= IMPORT; i++)
        sheet.addRow([
          `IMP${String(i).padStart(5, '0')}`,
          `Imported staff ${i}${corrected ? ' (corrected)' : ''}`,
          1 + (i % 2),
          `${corrected ? 5 : 6}${String(i).padStart(7, '0')}`,
          `Position ${(i + (corrected ? 1 : 0)) % 20}`,
          1960 + (i % 40),
          i % 10 === 0 ? '' : `Import dept ${1 + (i % DEPARTMENTS)}`,
        ]);
      return Buffer.from(await book.xlsx.writeBuffer());
    };
    const file = await staffFile(false);
    const correctedFile = await staffFile(true);
    const upload = (query: string, content: Buffer) =>
      api.http
        .post(`/base/personcompany/importperson/${companyId}${query}`)
        .set(admin.headers)
        .attach('file', content, { filename: 'staff.xlsx' });
    const run = async (what: string, query: string, content = file) => {
      log(`pglite: ${what} of ${IMPORT} staff (${round(content.length / 1024)} KB)`);
      const r = await measured(() => upload(query, content));
      if (r.answer.status !== 200) throw new Error(`${what}: ${JSON.stringify(r.answer.body).slice(0, 500)}`);
      return { seconds: r.seconds, rssGrowthMb: r.rssGrowthMb, ...r.answer.body.data };
    };
    const check = await run('preview', '?check=true');
    const first = await run('import', '');
    const again = await run('import of the corrected file', '', correctedFile);
    const listed = await admin.post('/base/personcompany/page/v1', { page: 1, limit: 10, keyword: '(corrected)' });
    return {
      bench: 'staff-import',
      engine: 'pglite',
      rows: IMPORT,
      departments: DEPARTMENTS,
      fileKb: round(file.length / 1024),
      targetSeconds: 10,
      check,
      import: first,
      importAgain: again,
      listedAfter: listed.body.data.total,
    };
  } finally {
    await api.close();
  }
});
