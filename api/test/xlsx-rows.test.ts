import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataRows } from '../src/modules/property/xlsx-rows';

// The unzipper instance exceljs reads zips with (patched by xlsx-rows on import).
const unzipper = createRequire(createRequire(import.meta.url).resolve('exceljs'))('unzipper') as {
  Parse: (opts: object) => NodeJS.ReadWriteStream & Readable;
};

let dir: string;
let file: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'xlsx-rows-'));
  file = join(dir, 'units.xlsx');
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Import');
  sheet.addRow(['Block', 'Floor', 'Unit']);
  sheet.addRow(['A', '1', '1A']);
  sheet.addRow([]);
  sheet.addRow(['A', 2, { richText: [{ text: '2' }, { text: 'B ' }] }]);
  await writeFile(file, Buffer.from(await book.xlsx.writeBuffer()));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('reading an import file', () => {
  it('yields the data rows of the first sheet as texts, skipping the header and blank rows', async () => {
    const rows = [];
    for await (const r of dataRows(file)) rows.push(r);
    expect(rows).toEqual([
      { row: 2, cells: ['A', '1', '1A'] },
      { row: 4, cells: ['A', '2', '2B'] },
    ]);
  });

  it('leaves no temporary copy of the worksheet behind, also when the reader stops early or the file is cut', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const { readlinkSync } = await import('node:fs');
    const isCopy = (name: string) => /\/tmp-\d+-[^/]*$/.test(name) && name.startsWith(tmpdir());
    const copies = async () => (await readdir(tmpdir())).filter((f) => f.startsWith(`tmp-${process.pid}-`)).length;
    // Descriptors still open on a worksheet copy (deleted or not).
    const openCopies = async () =>
      (await readdir('/proc/self/fd')).filter((fd) => {
        try {
          return isCopy(readlinkSync(`/proc/self/fd/${fd}`).replace(/ \(deleted\)$/, ''));
        } catch {
          return false;
        }
      }).length;
    // The first test's reader removes its copy a moment after it finishes: wait for none, so this
    // test starts from none whatever the machine's load (a copy counted as "before" and removed
    // meanwhile once failed the check below on a busy runner).
    await expect.poll(copies).toBe(0);
    await expect.poll(openCopies).toBe(0);
    for (let i = 0; i < 3; i++) for await (const r of dataRows(file)) void r;
    for await (const r of dataRows(file)) if (r) break;
    const whole = await readFile(file);
    for (const [name, bytes] of [
      ['cut-early.xlsx', 4000],
      ['cut-half.xlsx', Math.floor(whole.length / 2)],
    ] as const) {
      const cut = join(dir, name);
      await writeFile(cut, whole.subarray(0, bytes));
      await expect(
        (async () => {
          for await (const r of dataRows(cut)) void r;
        })(),
      ).rejects.toThrow();
    }
    await expect.poll(copies).toBe(0); // removed as the reader finishes, a moment later on a busy machine
    await expect.poll(openCopies).toBe(0); // a descriptor closes a moment after its stream is destroyed
  });

  it('keeps every zip entry when the reader falls behind the zip parser (a busy server read good files as empty)', async () => {
    // The parser reads the whole small file while nobody takes its entries, as on a loaded server.
    const zip = unzipper.Parse({ forceStream: true });
    let ended = false;
    zip.on('end', () => (ended = true));
    const { createReadStream } = await import('node:fs');
    createReadStream(file).pipe(zip);
    zip.pause();
    await once(zip, 'finish');
    // unzipper itself announced 'end' here, with the entries still buffered; a reader stopped.
    expect(ended).toBe(false);

    const names: string[] = [];
    for await (const entry of zip as AsyncIterable<{ path: string; autodrain: () => void }>) {
      names.push(entry.path);
      entry.autodrain();
    }
    expect(names).toEqual(
      expect.arrayContaining(['xl/worksheets/sheet1.xml', 'xl/sharedStrings.xml', 'xl/workbook.xml']),
    );
    expect(ended).toBe(true);
  });

  it('refuses a truncated file instead of waiting for the rest of it', async () => {
    const { readFile } = await import('node:fs/promises');
    const whole = await readFile(file);
    const cut = join(dir, 'cut.xlsx');
    await writeFile(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    const read = async () => {
      for await (const r of dataRows(cut)) void r;
    };
    await expect(read()).rejects.toThrow();
  });
});
