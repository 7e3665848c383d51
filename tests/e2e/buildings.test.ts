// Buildings end to end (issue 18) in Chromium: a block is created from its preview and listed;
// selected units download as a PDF with one QR cell each; a resident joining with a unit's code
// changes its status in the open list without a reload; a revoked code stops working; the three screens in en, zh-CN, zh-TW
// and at 390 px.
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { ADMIN, RESIDENT, apiCall, apiToken, repoRoot, signedInPage, useProductAndBrowser } from '../support/kit';

const locale = (lang: string) => JSON.parse(readFileSync(join(repoRoot, 'locales', `${lang}.json`), 'utf8'));
const en = locale('en');
const UNITS = '/login?redirect=%2Fbuilding-management%2Funit-management';

describe('buildings', () => {
  const run = useProductAndBrowser();

  it('when staff add a block, then the preview shows every unit name and the saved units are listed, selectable and printable as a PDF', async () => {
    const page = await signedInPage(run, ADMIN, { path: UNITS });
    await page.getByTestId('units-table').waitFor();

    await page.getByTestId('add-block').click();
    const dialog = page.getByTestId('block-dialog');
    await dialog.getByTestId('block-save').click();
    await dialog
      .getByText(en.buildings.messages.required.replace('{{field}}', en.buildings.fields.blockName.toLowerCase()))
      .waitFor();
    await page.locator('#block-name').fill('Harbour Tower');
    await page.locator('#block-number').fill('HT');
    await page.locator('#block-floorCount').fill('x');
    await dialog.getByTestId('block-save').click();
    await dialog.getByText(en.buildings.messages.onlyNumbers).waitFor();
    await page.locator('#block-floorCount').fill('12');
    await page.locator('#block-unitsPerFloor').fill('3');
    await page.locator('#block-prefix').fill('H');
    const preview = dialog.getByTestId('block-preview');
    await preview.waitFor();
    expect(await preview.textContent()).toContain('Preview: 36 units');
    expect(await preview.getByTestId('preview-floor-12').textContent()).toBe('12: H12A · H12B · H12C');
    await dialog.getByTestId('block-save').click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByTestId('block-filter').selectOption({ label: 'Harbour Tower' });
    await page.getByTestId('search').click();
    await page.getByTestId('unit-row-H1A').waitFor();

    // Nothing selected: "Select at least one item".
    await page.getByTestId('download-qrcodes').click();
    await page.getByText(en.buildings.messages.selectAtLeastOne).waitFor();

    // Two units selected (keyboard: Space on the focused checkbox) → an A4 PDF with two QR cells.
    const [first, second] = await page.getByTestId('units-table').locator('tbody input[type=checkbox]').all();
    await first.focus();
    await page.keyboard.press('Space');
    await second.check();
    expect(await page.getByTestId('selected-count').textContent()).toBe('2 selected');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-qrcodes').click()]);
    const pdf = (await readFile((await download.path())!)).toString('latin1');
    expect(pdf.startsWith('%PDF')).toBe(true);
    expect(pdf.match(/\/Title /g)).toHaveLength(2 + 1); // a bookmark per cell and the document title
  });

  it("when a resident joins with a unit's code, then its status changes in the open list without a reload", async () => {
    const url = run.product.url;
    const admin = await apiToken(url, ADMIN);
    const block = await apiCall<{ blockId: number }>(url, '/base/block/save', admin, {
      name: 'Live Block',
      number: 'LB',
      floorCount: 1,
      unitsPerFloor: 1,
    });
    const page = await signedInPage(run, ADMIN, {
      path: `/login?redirect=${encodeURIComponent(`/building-management/unit-management?block=${block.blockId}`)}`,
    });
    const row = page.getByTestId('unit-row-1A');
    await row.waitFor();
    expect(await row.getByTestId('house-status').textContent()).toBe(en.houseStatus.s1);

    const units = await apiCall<{ list: { unitId: number }[] }>(url, '/base/unit/page', admin, {
      blockId: block.blockId,
    });
    const info = await apiCall<{ inviteCode: string }>(url, `/base/unit/info/${units.list[0].unitId}`, admin);
    const resident = await apiToken(url, RESIDENT);
    await apiCall(url, '/app/personhouse/join', resident, { inviteCode: info.inviteCode, identity: 2 });

    await expect.poll(() => row.getByTestId('house-status').textContent(), { timeout: 15_000 }).toBe(en.houseStatus.s2);
  });

  it("when staff revoke a unit's code in its info dialog, then they confirm first, the code is gone and a join with it is refused", async () => {
    const url = run.product.url;
    const admin = await apiToken(url, ADMIN);
    const block = await apiCall<{ blockId: number }>(url, '/base/block/save', admin, {
      name: 'Revoke Block',
      number: 'RB',
      floorCount: 1,
      unitsPerFloor: 1,
    });
    const units = await apiCall<{ list: { unitId: number }[] }>(url, '/base/unit/page', admin, {
      blockId: block.blockId,
    });
    const unitId = units.list[0].unitId;
    const { inviteCode } = await apiCall<{ inviteCode: string }>(url, `/base/unit/info/${unitId}`, admin);
    const page = await signedInPage(run, ADMIN, {
      path: `/login?redirect=${encodeURIComponent(`/building-management/unit-management?block=${block.blockId}&open=${unitId}`)}`,
    });
    const codes = page.getByTestId('unit-info').getByTestId('house-codes');
    await codes.getByTestId('qr-image').waitFor();
    expect(await codes.getByTestId('invite-code').textContent()).toBe(inviteCode);

    // Cancelled: nothing changes. Confirmed: the code and its QR are gone at once.
    await codes.getByTestId('revoke-code').click();
    await page.getByTestId('confirm-cancel').click();
    expect(await codes.getByTestId('invite-code').textContent()).toBe(inviteCode);
    await codes.getByTestId('revoke-code').click();
    expect(await page.getByTestId('confirm-dialog').textContent()).toContain(
      en.buildings.messages.confirmRevoke.split('{{name}}')[0],
    );
    await page.getByTestId('confirm-ok').click();
    await codes.getByTestId('no-invite-code').waitFor();
    expect(await codes.getByTestId('qr-image').count()).toBe(0);
    expect(await codes.getByTestId('revoke-code').count()).toBe(0);

    const resident = await apiToken(url, RESIDENT);
    await expect(apiCall(url, '/app/personhouse/join', resident, { inviteCode, identity: 2 })).rejects.toThrow(
      en.buildings.errors.codeRevoked,
    );
    // A new code brings the QR back.
    await codes.getByTestId('regenerate-code').click();
    await codes.getByTestId('qr-image').waitFor();
    expect(await codes.getByTestId('invite-code').textContent()).not.toBe(inviteCode);
  });

  it('when staff import a unit file with one bad row, then the report names it and nothing is written; the fixed file is imported and listed', async () => {
    const url = run.product.url;
    const admin = await apiToken(url, ADMIN);
    const block = await apiCall<{ blockId: number }>(url, '/base/block/save', admin, {
      name: 'Import Block',
      number: 'IB',
      floorCount: 2,
      unitsPerFloor: 1,
    });
    const file = async (rows: string[][]) => {
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('Import');
      sheet.addRow(['Block', 'Floor', 'Unit']);
      for (const r of rows) sheet.addRow(r);
      return {
        name: 'units.xlsx',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from(await book.xlsx.writeBuffer()),
      };
    };
    const count = async () =>
      (await apiCall<{ total: number }>(url, '/base/unit/page', admin, { blockId: block.blockId })).total;
    const page = await signedInPage(run, ADMIN, {
      path: `/login?redirect=${encodeURIComponent(`/building-management/unit-management?block=${block.blockId}`)}`,
    });
    await page.getByTestId('unit-row-1A').waitFor();

    const input = page.getByTestId('units-screen').locator('..').locator('input[type=file]');
    await input.setInputFiles(
      await file([
        ['Import Block', '1', '1Z'],
        ['Import Block', '7', '7Z'],
        ['Import Block', '2', '2Z'],
      ]),
    );
    const dialog = page.getByTestId('import-dialog');
    await dialog.getByTestId('import-refused').waitFor({ timeout: 15_000 });
    expect(await dialog.getByTestId('import-errors').locator('tbody tr').allTextContents()).toEqual([
      `3${en.buildings.fields.floor}${en.buildings.import.noSuchFloor.replace('{{name}}', '7')}`,
    ]);
    const [report] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('download-report').click()]);
    const csv = (await readFile((await report.path())!, 'utf8'))
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(csv).toEqual(['"Row","Column","Reason"', `"3","Floor","This block has no floor 7"`]);
    expect(await count()).toBe(2);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await input.setInputFiles(
      await file([
        ['Import Block', '1', '1Z'],
        ['Import Block', '2', '2Z'],
      ]),
    );
    await page.getByText(en.buildings.import.done.replace('{{count}}', '2')).waitFor({ timeout: 15_000 });
    await page.getByTestId('unit-row-2Z').waitFor();
    expect(await count()).toBe(4);
    await page.getByTestId('import-log').click();
    const log = page.getByTestId('import-log-dialog').getByTestId('import-log-row');
    await log.first().waitFor();
    expect(await log.first().textContent()).toContain('2 / 0');
    expect(await log.nth(1).textContent()).toContain('0 / 1');
    await page.keyboard.press('Escape');

    // Export the list as filtered (this block): an Excel file with its 4 units, in the background.
    const [exported] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-list').click()]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Uint8Array.from(await readFile((await exported.path())!)).buffer);
    expect(book.worksheets[0].rowCount).toBe(5);
    expect((book.worksheets[0].getRow(1).values as string[])[1]).toBe(en.buildings.fields.block);
  });

  for (const [language, width] of [
    ['en', 390],
    ['zh-CN', 1366],
    ['zh-TW', 1366],
    ['zh-TW', 390],
  ] as const) {
    it(`when the three screens are shown in ${language} at ${width} px, then they are translated and fit the width`, async () => {
      const texts = locale(language).buildings;
      const page = await signedInPage(run, ADMIN, { language, width, path: UNITS });
      for (const [path, screen, button] of [
        ['/building-management/unit-management', 'units-screen', 'add-block'],
        ['/building-management/park-space-management', 'spaces-screen', 'add-space'],
        ['/building-management/merchant-management', 'shops-screen', 'add-shop'],
      ] as const) {
        await page.goto(run.product.url + path);
        await page.getByTestId(screen).getByRole('row').nth(1).waitFor();
        const key = { 'add-block': 'addBlock', 'add-space': 'addSpace', 'add-shop': 'addShop' }[button];
        expect(await page.getByTestId(button).textContent()).toBe(texts.actions[key]);
        expect(await page.getByTestId('download-qrcodes').textContent()).toBe(texts.actions.downloadQrs);
        // The page itself never scrolls sideways (a wide table scrolls inside its own box).
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${screen} ${language} ${width}`).toBeLessThanOrEqual(0);
      }
    });
  }
});
