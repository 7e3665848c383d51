// Buildings end to end (issue 18) in Chromium: a block is created from its preview and listed;
// selected units download as a PDF with one QR cell each; a resident joining with a unit's code
// changes its status in the open list without a reload; the three screens in en, zh-CN, zh-TW
// and at 390 px.
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
    expect(pdf.match(/\/SMask \d+ 0 R/g)).toHaveLength(2);
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
