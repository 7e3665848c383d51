// The estate's time zone in the browser (issue 16): staff whose browser runs in New York see the
// Hong Kong estate's times and days — a complaint made at 00:30 in Hong Kong on 7 November is
// "2026-11-07 00:30" and is found by the day filter 2026-11-07, one made at 00:30 on the 8th is
// not; "Today" and "This week" are the estate's. The two near-midnight rows are written into the
// demo database (seedDataDir) before the product starts on it.
import { rmSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, fillLogin, launchBrowser, newDataDir, seedDataDir, startProduct, type Product } from '../support/kit';

const ESTATE_ZONE = 'Asia/Hong_Kong';
const SEVENTH = 'Half past midnight on the 7th';
const EIGHTH = 'Half past midnight on the 8th';
const day = (d: Date, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(d);

describe("the estate's time zone, in a browser elsewhere", () => {
  const dataDir = newDataDir();
  let product: Product;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    // The demo estate, migrated and seeded; then two complaints moved to just after midnight.
    await seedDataDir(dataDir);
    const db = new PGlite({ dataDir, extensions: { pg_trgm } });
    const estate = `(select id from housing_estate where name = 'Harbour View Garden')`;
    const { rows } = await db.query<{ id: number }>(
      `select id from complain where housing_estate_id = ${estate} order by id limit 2`,
    );
    // 00:30 in Hong Kong (UTC+8) is 16:30 UTC the day before; in New York it is 11:30 the day before.
    await db.query(`update complain set name = $1, report_time = '2026-11-06T16:30:00Z' where id = $2`, [
      SEVENTH,
      rows[0].id,
    ]);
    await db.query(`update complain set name = $1, report_time = '2026-11-07T16:30:00Z' where id = $2`, [
      EIGHTH,
      rows[1].id,
    ]);
    await db.close();
    product = await startProduct({}, { dataDir });
    browser = await launchBrowser();
    const context = await browser.newContext({
      viewport: { width: 1366, height: 900 },
      locale: 'en-US',
      timezoneId: 'America/New_York',
    });
    await context.addCookies([{ name: 'language', value: 'en', url: product.url }]);
    page = await context.newPage();
    await page.goto(product.url + '/login?redirect=%2Fcomplaints-suggestions%2Findex');
    await fillLogin(page, ADMIN);
    await page.getByTestId('work-table').waitFor({ timeout: 30_000 });
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when the day 2026-11-07 is filtered, then the rows are those of that day in Hong Kong, shown in Hong Kong time', async () => {
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('America/New_York');
    await page.goto(product.url + '/complaints-suggestions/index?from=2026-11-07&to=2026-11-07');
    await page.getByTestId('work-table').waitFor();
    const table = page.getByTestId('work-table');
    const seventh = table.locator('tbody tr', { hasText: SEVENTH });
    await seventh.waitFor();
    expect(await seventh.textContent()).toContain('2026-11-07 00:30');
    expect(await table.locator('tbody tr', { hasText: EIGHTH }).count()).toBe(0);

    await page.goto(product.url + '/complaints-suggestions/index?from=2026-11-08&to=2026-11-08');
    const eighth = page.getByTestId('work-table').locator('tbody tr', { hasText: EIGHTH });
    await eighth.waitFor();
    expect(await eighth.textContent()).toContain('2026-11-08 00:30');
    expect(await page.getByTestId('work-table').locator('tbody tr', { hasText: SEVENTH }).count()).toBe(0);

    await eighth.getByTestId('open-detail').click();
    const dialog = page.getByTestId('work-detail');
    await dialog.getByTestId('work-info').waitFor();
    expect(await dialog.textContent()).toContain('2026-11-08 00:30');
  });

  it("when Today and This week are chosen, then they are the estate's day and its Monday-to-Sunday week", async () => {
    await page.goto(product.url + '/complaints-suggestions/index');
    await page.getByTestId('date-range-picker').waitFor();
    const picker = page.getByTestId('date-range-picker');
    await picker.getByRole('button', { name: 'Today' }).click();
    const today = day(new Date(), ESTATE_ZONE);
    expect(await page.getByTestId('date-start').inputValue()).toBe(today);
    expect(await page.getByTestId('date-end').inputValue()).toBe(today);

    await picker.getByRole('button', { name: 'This week' }).click();
    const start = await page.getByTestId('date-start').inputValue();
    const end = await page.getByTestId('date-end').inputValue();
    expect(new Date(`${start}T12:00:00Z`).getUTCDay()).toBe(1);
    expect(new Date(`${end}T12:00:00Z`).getUTCDay()).toBe(0);
    expect(start <= today && today <= end).toBe(true);
  });
});
