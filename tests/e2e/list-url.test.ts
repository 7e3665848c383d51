// A list's state lives in the URL (issue 15 items 5 and 6): reload, back/forward and a pasted
// link show the same status tab, filters, page, size and open record; status tabs are links
// that carry the list's state and open in a new tab; a search that matches nothing says so.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, apiCall, apiToken, signIn, useProductAndBrowser } from '../support/kit';

const RESIDENT = { username: 'resident3', password: 'resident123' };
const LIST = '/complaints-suggestions/index';

/** Files a complaint as a resident (resident API) and answers its code. */
async function fileComplaint(url: string, name: string): Promise<string> {
  const token = await apiToken(url, RESIDENT);
  const houses = await apiCall<{ houseType: number; houseId: number }[]>(url, '/app/house/list', token);
  const { complainCode } = await apiCall<{ complainCode: string }>(url, '/app/complain/save', token, {
    name,
    note: 'Filed by the list-state test',
    houseType: houses[0].houseType,
    houseId: houses[0].houseId,
  });
  return complainCode;
}

const params = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);
const activeTab = (page: Page) => page.locator('.list-status-tabs a[aria-current=page]').getAttribute('data-testid');
const activePage = (page: Page) => page.locator('[data-testid=list-pagination] a.active.item').textContent();
const rowCodes = (page: Page) =>
  page
    .getByTestId('work-table')
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')));

async function openList(page: Page, url: string) {
  await signIn(page, url, ADMIN, `/login?redirect=${encodeURIComponent(LIST)}`);
  await page.getByTestId('work-table').waitFor();
}

describe('list state in the URL', () => {
  const run = useProductAndBrowser();

  it('when a tab, page and record are chosen, then reload and back/forward show the same ones', async () => {
    const page = await (await run.context()).newPage();
    await openList(page, run.product.url);

    // The status tab is a link that carries the list's state.
    const processing = page.getByTestId('status-tab-2');
    expect(await processing.evaluate((a) => a.tagName)).toBe('A');
    await processing.click();
    await expect.poll(() => params(page)).toEqual({ status: '2' });
    await expect.poll(() => activeTab(page)).toBe('status-tab-2');

    // Page 2 of the processing complaints (the demo estate has 12).
    await expect.poll(() => rowCodes(page)).toHaveLength(10);
    const pageOne = await rowCodes(page);
    await page.locator('[data-testid=list-pagination] a.item', { hasText: /^2$/ }).click();
    await expect.poll(() => params(page)).toEqual({ status: '2', page: '2' });
    await expect.poll(() => activePage(page)).toBe('2');
    await expect.poll(async () => (await rowCodes(page))[0]).not.toBe(pageOne[0]);
    // The 12 processing ones: two on page 2 (polled: the table may still show the page before).
    await expect.poll(() => rowCodes(page)).toHaveLength(2);
    const pageTwo = await rowCodes(page);

    // Open the first record of page 2.
    const row = page.getByTestId('work-table').locator('tbody tr').first();
    const code = (await row.locator('td').first().textContent())!;
    await row.getByTestId('open-detail').click();
    const dialog = page.getByTestId('work-detail');
    await dialog.getByTestId('work-info').waitFor();
    const open = params(page).open;
    expect(open).toMatch(/^\d+$/);
    await dialog.getByTestId('tab-reply').click();
    await expect.poll(() => params(page).tab).toBe('reply');

    // Reload: the same tab, page, record and dialog tab.
    await page.reload();
    await dialog.getByTestId('work-replies').waitFor();
    expect(await dialog.getByTestId('tab-reply').getAttribute('aria-current')).toBe('page');
    expect(params(page)).toEqual({ status: '2', page: '2', open, tab: 'reply' });
    await dialog.getByTestId('tab-info').click();
    await dialog.getByTestId('work-info').waitFor();
    expect(await dialog.textContent()).toContain(code);
    await expect.poll(() => activeTab(page)).toBe('status-tab-2');
    await expect.poll(() => activePage(page)).toBe('2');

    // Escape closes the record; back opens it again, back again leaves page 2's list only.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(params(page)).toEqual({ status: '2', page: '2' });
    await page.goBack();
    await dialog.getByTestId('work-info').waitFor();
    expect(params(page).open).toBe(open);

    // Back through the history: the record closes, then page 1, then the "all" tab.
    for (let i = 0; i < 6 && params(page).page === '2'; i++) await page.goBack();
    await expect.poll(() => params(page)).toEqual({ status: '2' });
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => activePage(page)).toBe('1');
    await page.goBack();
    await expect.poll(() => activeTab(page)).toBe('status-tab-0');
    await page.goForward();
    await page.goForward();
    await expect.poll(() => params(page)).toEqual({ status: '2', page: '2' });
    await expect.poll(() => activePage(page)).toBe('2');
    await expect.poll(() => rowCodes(page)).toEqual(pageTwo);
  });

  it('when filters are applied, then a pasted link, a status tab opened in a new tab and a reload keep them', async () => {
    const url = run.product.url;
    const marker = `Lift ${Date.now()}`;
    const code = await fileComplaint(url, `${marker} stuck between floors`);
    const context = await run.context();
    const page = await context.newPage();
    await openList(page, url);

    // Days are the estate's (Asia/Hong_Kong for the demo estate), whatever the browser's zone.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Hong_Kong' }).format(new Date());
    await page.getByLabel('Keyword').fill(marker);
    await page.getByTestId('date-start').fill(today);
    await page.getByTestId('date-end').fill(today);
    await page.getByTestId('search').click();
    await expect.poll(() => params(page)).toEqual({ q: marker, from: today, to: today });
    await expect.poll(() => rowCodes(page), { timeout: 10_000 }).toEqual([`work-row-${code}`]);

    // The status tabs' links carry the filters.
    const untreatedHref = await page.getByTestId('status-tab-1').getAttribute('href');
    expect(Object.fromEntries(new URL(untreatedHref!, url).searchParams)).toEqual({
      status: '1',
      q: marker,
      from: today,
      to: today,
    });

    // Ctrl+click opens the tab in a new browser tab with the same filters.
    const [newTab] = await Promise.all([
      context.waitForEvent('page'),
      page.getByTestId('status-tab-1').click({ modifiers: ['ControlOrMeta'] }),
    ]);
    await newTab.getByTestId('work-table').waitFor();
    expect(params(newTab)).toEqual({ status: '1', q: marker, from: today, to: today });
    await expect.poll(() => rowCodes(newTab)).toEqual([`work-row-${code}`]);
    expect(await newTab.getByLabel('Keyword').inputValue()).toBe(marker);
    // The first tab did not move; a reload keeps the filters in the form and the list.
    expect(params(page)).toEqual({ q: marker, from: today, to: today });
    await page.reload();
    await expect.poll(() => rowCodes(page), { timeout: 10_000 }).toEqual([`work-row-${code}`]);
    expect(await page.getByLabel('Keyword').inputValue()).toBe(marker);
    expect(await page.getByTestId('date-start').inputValue()).toBe(today);

    // A pasted link (a fresh tab at the same address) shows the same filters and opens the record.
    await page.getByTestId(`work-row-${code}`).getByTestId('open-detail').click();
    await page.getByTestId('work-detail').getByTestId('work-info').waitFor();
    const link = page.url();
    const pasted = await context.newPage();
    await pasted.goto(link);
    await pasted.getByTestId('work-detail').getByTestId('work-info').waitFor();
    expect(await pasted.getByTestId('work-detail').textContent()).toContain(code);
    expect(await pasted.getByTestId('date-start').inputValue()).toBe(today);
    expect(await pasted.getByTestId('date-end').inputValue()).toBe(today);
    await pasted.keyboard.press('Escape');
    await expect.poll(() => rowCodes(pasted)).toEqual([`work-row-${code}`]);
  });

  it('when nothing matches the filters, then the empty state says so and offers to clear them', async () => {
    const page = await (await run.context()).newPage();
    await openList(page, run.product.url);
    await page.getByLabel('Keyword').fill('no such complaint anywhere');
    await page.getByTestId('search').click();
    const empty = page.getByTestId('empty-placeholder');
    await empty.waitFor();
    expect(await empty.getAttribute('data-empty')).toBe('no-match');
    expect(await empty.textContent()).toContain('No records match your filters');
    expect(await page.getByTestId('list-pagination').count()).toBe(0);
    await empty.getByTestId('clear-filters').click();
    await page.getByTestId('work-table').waitFor();
    expect(params(page)).toEqual({});
    expect(await page.getByLabel('Keyword').inputValue()).toBe('');
  });
});
