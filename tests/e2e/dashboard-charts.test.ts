// The dashboard's charts (issue 22): complaints and work orders per day by status, work orders by
// type, average time to deal and to complete; 7 or 30 days; they move live when a resident files
// one, in two tabs; a kind the person may not list has no chart; 390 px in Chinese.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, RESIDENT, apiCall, apiToken, signedInPage, useProductAndBrowser } from '../support/kit';

const LISTER = { username: 'charts-lister', password: 'Lister123' };
const today = (page: Page, kind: string) =>
  page
    .getByTestId(`charts-${kind}`)
    .getAttribute('data-today')
    .then((v) => (v ? (JSON.parse(v) as { untreated: number }).untreated : -1));

describe('dashboard charts', () => {
  const run = useProductAndBrowser();

  beforeAll(async () => {
    const url = run.product.url;
    const admin = await apiToken(url, ADMIN);
    const menus = await apiCall<{ list: { menuId: number; perms: string }[] }>(url, '/base/sysmenu/page/v2', admin, {
      page: 1,
      limit: 1000,
    });
    const menuIds = menus.list.filter((m) => m.perms === '' || m.perms === 'complain:list').map((m) => m.menuId);
    const { roleId } = await apiCall<{ roleId: number }>(url, '/base/sysrole/saveorupdate', admin, {
      roleName: 'Chart complaint listers',
      roleValue: 'CHARTS',
      menuIds,
    });
    await apiCall(url, '/account/update', admin, { ...LISTER, name: 'Chris Charts', roleId });
  });

  it('when a resident files a work order, then the chart of today moves in two open dashboards without reload', async () => {
    const tabs = [
      await signedInPage(run, ADMIN, { path: '/login?redirect=%2Fdashboard' }),
      await signedInPage(run, ADMIN, { path: '/login?redirect=%2Fdashboard' }),
    ];
    for (const page of tabs) {
      await page.getByTestId('charts-complaint').locator('.apexcharts-canvas').waitFor();
      await page.getByTestId('charts-eventOrder').locator('.apexcharts-canvas').first().waitFor();
      expect(await page.getByTestId('charts-eventOrder').getAttribute('data-days')).toBe('7');
    }
    const before = await today(tabs[0], 'eventOrder');

    const resident = await apiToken(run.product.url, RESIDENT);
    const houses = await apiCall<{ houseType: number; houseId: number }[]>(
      run.product.url,
      '/app/house/list',
      resident,
    );
    await apiCall(run.product.url, '/app/eventOrder/save', resident, {
      name: 'Chart test',
      note: 'Filed for the dashboard charts',
      type: 2,
      ...houses[0],
    });
    for (const page of tabs) await expect.poll(() => today(page, 'eventOrder')).toBe(before + 1);

    // 30 days, then back to 7.
    const charts = tabs[0].getByTestId('charts-eventOrder');
    await charts.getByRole('button', { name: '30 days' }).click();
    await expect.poll(() => charts.getAttribute('data-days')).toBe('30');
    expect(await charts.getByTestId('avg-deal-eventOrder').textContent()).toMatch(/\d+ (h|min)|–/);
  });

  it('when a person may list complaints but not work orders, then only the complaint chart is there', async () => {
    const page = await signedInPage(run, LISTER, { path: '/login?redirect=%2Fdashboard' });
    await page.getByTestId('charts-complaint').locator('.apexcharts-canvas').waitFor();
    expect(await page.getByTestId('charts-eventOrder').count()).toBe(0);
  });

  it.each(['zh-CN', 'zh-TW'])(
    'when the dashboard is shown in %s at 390 px, then the charts fit and speak the language',
    async (language) => {
      const page = await signedInPage(run, ADMIN, { language, width: 390, path: '/login?redirect=%2Fdashboard' });
      const charts = page.getByTestId('charts-complaint');
      // Below the tiles on a phone: the chart library loads only when the charts come near the screen.
      await charts.getByTestId('avg-deal-complaint').waitFor();
      expect(await charts.locator('.apexcharts-canvas').count()).toBe(0);
      await charts.scrollIntoViewIfNeeded();
      await charts.locator('.apexcharts-canvas').waitFor();
      expect(await charts.textContent()).toMatch(language === 'zh-CN' ? /投诉建议/ : /投訴建議/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    },
  );
});
