// Excel import of units, spaces and shops (issue 18): the template in the caller's language; a
// file with a bad row is refused whole with a report naming row, column and reason, and nothing
// is written; the fixed file is imported and listed; every import is in /build-log/v1.
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowCounts, signIn, startTestApi, testEngines, type Session, type TestApi } from './kit';

const TABLES = ['unit', 'car_space', 'shop'] as const;

async function xlsx(rows: (string | number)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Import');
  sheet.addRow(['header']);
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe.each(testEngines())('property import on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  const upload = (path: string, file: Buffer, name = 'houses.xlsx', lang = 'en') =>
    api.http.post(path).set(admin.headers).set('lang', lang).attach('file', file, { filename: name });

  beforeAll(async () => {
    api = await startTestApi(engine);
    admin = await signIn(api, 'admin');
  });
  afterAll(async () => api?.close());

  it('when staff download a template, then its headers are in their language', async () => {
    const res = await api.http
      .get('/base/unit/import/template')
      .set(admin.headers)
      .set('lang', 'zh-TW')
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Uint8Array.from(res.body as Buffer).buffer);
    const headers = (book.worksheets[0].getRow(1).values as string[]).slice(1);
    expect(headers).toEqual(['座數', '樓層', '單位', '房', '廳', '衛', '可邀請成員數']);
  });

  it('when a unit file has bad rows, then nothing is written and the report names each row, column and reason; the fixed file is imported', async () => {
    const block = await admin.post('/base/block/save', {
      name: 'Import Tower',
      number: 'IT',
      floorCount: 2,
      unitsPerFloor: 1,
    });
    expect(block.status).toBe(200);
    const rows = await rowCounts(api, TABLES);
    const bad = await xlsx([
      ['Import Tower', '1', '1X', 2, 1, 1, 4],
      ['Import Tower', '1', '1X', 2, 1, 1, 4], // duplicate in the file
      ['Import Tower', '2', '2A', 'two', 1, 1, 4], // letters in a number column; 2A exists
      ['Nowhere', '1', '1Z', '', '', '', ''], // no such block
      ['Import Tower', '9', '9A'], // no such floor
      ['Import Tower', '', '1Y'], // required
    ]);
    const refused = await upload('/base/unit/import', bad, 'units.xlsx', 'zh-CN');
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toMatch(/[\u4e00-\u9fff]/);
    expect(refused.body.data.total).toBe(6);
    const errors = refused.body.data.errors as { row: number; column: string; reason: string }[];
    expect(errors.map((e) => [e.row, e.column])).toEqual([
      [3, '单元'],
      [4, '室'],
      [4, '单元'],
      [5, '楼栋'],
      [6, '楼层'],
      [7, '楼层'],
    ]);
    expect(errors[0].reason).toContain('重复');
    expect(errors[1].reason).toBe('只能输入数字');
    expect(errors[3].reason).toContain('Nowhere');
    expect(await rowCounts(api, TABLES)).toEqual(rows);

    const fixed = await xlsx([
      ['Import Tower', '1', '1X', 2, 1, 1, 4],
      ['import tower', '2', '2X', 3, 2, 2, ''],
    ]);
    const done = await upload('/base/unit/import', fixed);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data).toEqual({ total: 2, written: 2 });
    const listed = await admin.post('/base/unit/page', { blockId: block.body.data.blockId, keyword: 'X' });
    expect(listed.body.data.list).toEqual([
      expect.objectContaining({ name: '1X', room: 2, invitePerson: 4, houseStatus: 1 }),
      expect.objectContaining({ name: '2X', room: 3, livingRoom: 2, invitePerson: 5 }),
    ]);

    const log = await admin.post('/build-log/v1', { kind: 1 });
    expect(log.body.data.list.slice(0, 2)).toEqual([
      expect.objectContaining({
        personId: admin.personId,
        action: 'import',
        fileName: 'houses.xlsx',
        total: 2,
        written: 2,
        failed: 0,
      }),
      expect.objectContaining({ fileName: 'units.xlsx', total: 6, written: 0, failed: 5 }),
    ]);
  });

  it('when the workbook part comes last in the zip, then the file is still read (exceljs issue #962)', async () => {
    const block = await admin.post('/base/block/save', {
      name: 'Zip Order',
      number: 'ZO',
      floorCount: 1,
      unitsPerFloor: 1,
    });
    expect(block.status).toBe(200);
    // Zip writers do not fix the order of an .xlsx's parts: put the sheet and its shared strings
    // before xl/workbook.xml, the order that made exceljs's streaming reader throw.
    const original = await JSZip.loadAsync(await xlsx([['Zip Order', '1', '1Q', 1, 1, 1, 3]]));
    const last = 'xl/workbook.xml';
    const first = ['[Content_Types].xml', '_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/sharedStrings.xml'];
    const names = Object.keys(original.files).filter((n) => !original.files[n].dir);
    expect(names).toEqual(expect.arrayContaining([...first, last, 'xl/worksheets/sheet1.xml']));
    const reordered = new JSZip();
    for (const name of [...first, ...names.filter((n) => !first.includes(n) && n !== last), last])
      reordered.file(name, await original.file(name)!.async('uint8array'));
    const file = await reordered.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });

    const done = await upload('/base/unit/import', file);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data).toEqual({ total: 1, written: 1 });
  });

  it('when spaces and shops are imported, then codes must be new and types valid, and good files are written', async () => {
    const park = await admin.post('/base/carpark/park/save', { name: 'Import Park' });
    expect(park.status).toBe(200);
    const badSpaces = await upload(
      '/base/carpark/import',
      await xlsx([
        ['Import Park', 'IP-1', 3, '', ''],
        ['Import Park', 'IP-2', 1],
      ]),
    );
    expect(badSpaces.status).toBe(400);
    expect(badSpaces.body.data.errors).toEqual([
      expect.objectContaining({ row: 2, reason: 'Enter 1 (private car) or 2 (electric car)' }),
    ]);
    const spaces = await upload(
      '/base/carpark/import',
      await xlsx([
        ['Import Park', 'IP-1', 2, 'AB 123', 2],
        ['Import Park', 'IP-2', 1],
      ]),
    );
    expect(spaces.body.data).toEqual({ total: 2, written: 2 });
    expect((await admin.post('/base/carpark/page', { carParkId: park.body.data.carParkId })).body.data.total).toBe(2);

    const shops = await upload(
      '/base/shop/import',
      await xlsx([
        ['IMP-S1', 'Tea house'],
        ['IMP-S2', 'Florist', 4],
      ]),
    );
    expect(shops.body.data).toEqual({ total: 2, written: 2 });
    const again = await upload('/base/shop/import', await xlsx([['imp-s1', 'Tea house']]));
    expect(again.status).toBe(400);
    expect(again.body.data.errors[0]).toMatchObject({ row: 2, reason: 'imp-s1 already exists in this estate' });
  });

  it('when staff export a filtered list, then the Excel file holds exactly its rows with translated headers', async () => {
    const block = await admin.post('/base/block/save', {
      name: 'Export Tower',
      number: 'ET',
      floorCount: 3,
      unitsPerFloor: 2,
    });
    const res = await api.http
      .post('/base/unit/export')
      .set(admin.headers)
      .set('lang', 'zh-CN')
      .send({ blockId: block.body.data.blockId })
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(res.headers['x-total-rows']).toBe('6');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Uint8Array.from(res.body as Buffer).buffer);
    const sheet = book.worksheets[0];
    expect((sheet.getRow(1).values as string[]).slice(1, 4)).toEqual(['楼栋', '楼层', '单元']);
    expect(sheet.rowCount).toBe(7);
    expect((sheet.getRow(7).values as string[]).slice(1, 4)).toEqual(['Export Tower', '3', '3B']);
    expect(sheet.getRow(2).getCell(7).value).toBe('未登记');
  });

  it('when the file is not an Excel file, then 400 "please choose the correct file format" and nothing is written', async () => {
    const rows = await rowCounts(api, TABLES);
    const text = await upload('/base/shop/import', Buffer.from('code,name\nA,B\n'), 'shops.xlsx');
    expect(text.status).toBe(400);
    expect(text.body.msg).toMatch(/correct file format/);
    const none = await api.http.post('/base/shop/import').set(admin.headers).field('x', '1');
    expect(none.status).toBe(400);
    expect(await rowCounts(api, TABLES)).toEqual(rows);
  });
});
