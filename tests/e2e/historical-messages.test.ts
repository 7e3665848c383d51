// /dashboard/historical-message (issue 22): every message, read and unread, by type and day,
// paged; View marks it read and opens the record; reached from the dashboard; three languages
// and 390 px without widening the page.
import { describe, expect, it } from 'vitest';
import { ADMIN, RESIDENT, apiCall, apiToken, signedInPage, useProductAndBrowser } from '../support/kit';

const PATH = '/dashboard/historical-message';

describe('historical messages', () => {
  const run = useProductAndBrowser();

  it('when a resident files a complaint, then its message is in the history, View opens the complaint and the message turns read', async () => {
    const token = await apiToken(run.product.url, RESIDENT);
    const houses = await apiCall<{ houseType: number; houseId: number }[]>(run.product.url, '/app/house/list', token);
    const { complainCode } = await apiCall<{ complainCode: string }>(run.product.url, '/app/complain/save', token, {
      name: 'History test',
      note: 'Filed for the historical messages screen',
      houseType: houses[0].houseType,
      houseId: houses[0].houseId,
    });

    const page = await signedInPage(run, ADMIN, { path: '/login?redirect=%2Fdashboard' });
    await page.getByTestId('open-historical-messages').click();
    await page.waitForURL(new RegExp(`${PATH}$`));
    await page.getByTestId('message-table').waitFor();

    // Only complaints (message 50), unread.
    await page.getByTestId('status-tab-1').click();
    await page.getByTestId('type-filter').selectOption('50');
    await page.getByTestId('search').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('type')).toBe('50');
    const row = page.locator('[data-testid^=message-row-]', { hasText: 'History test' });
    await row.waitFor();
    const rowId = await row.getAttribute('data-testid');

    await row.getByTestId('message-view').click();
    await page.waitForURL(/\/complaints-suggestions\/index\?open=\d+/);
    await expect.poll(() => page.getByTestId('work-detail').textContent()).toContain(complainCode);

    // Back in the history, it is no longer unread but is listed as read.
    await page.goto(`${run.product.url}${PATH}?status=2&type=50`);
    await page.getByTestId(rowId!).waitFor();
    await page.goto(`${run.product.url}${PATH}?status=1&type=50`);
    await page.getByTestId('message-table').or(page.getByTestId('empty-placeholder')).first().waitFor();
    expect(await page.getByTestId(rowId!).count()).toBe(0);
  });

  it.each(['zh-CN', 'zh-TW'])(
    'when shown in %s at 390 px, then its words are translated and nothing widens the page',
    async (language) => {
      const page = await signedInPage(run, ADMIN, {
        language,
        width: 390,
        path: `/login?redirect=${encodeURIComponent(PATH)}`,
      });
      await page.getByTestId('message-table').waitFor();
      const text = await page.getByTestId('historical-messages').textContent();
      expect(text).toMatch(language === 'zh-CN' ? /未读/ : /未讀/);
      expect(text).not.toMatch(/Unread|Message type/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    },
  );
});
