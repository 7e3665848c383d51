// The live connection as wall screens and staff see it (issue 16): the top bar always says whether
// the figures are live; with socket.io blocked from the start no counter pretends to be 0; when
// the gateway goes away the dashboard says since when its figures are old, and once it is back
// the counters are the server's again; a tab the gateway refuses for now (429: too many tabs)
// shows "reconnecting" and gets in when a place frees up. The product runs with one tab per person.
import { describe, expect, it } from 'vitest';
import type { Page, WebSocketRoute } from 'playwright-core';
import { ADMIN, apiCall, apiToken, signIn, STAFF, useProductAndBrowser } from '../support/kit';

/** Each test signs in as its own person: the product allows one tab per person. */
const ADMIN2 = { username: 'admin2', password: 'admin123' };

const SOCKET = /\/socket\.io\//;

/** Cuts the page off from the gateway's socket.io (both transports) until `restore()`. */
async function socketCut(page: Page) {
  let down = false;
  const open: WebSocketRoute[] = [];
  await page.routeWebSocket(SOCKET, (ws) => {
    if (down) return void ws.close();
    ws.connectToServer();
    open.push(ws);
  });
  await page.route(SOCKET, (route) => (down ? route.abort('connectionrefused') : route.continue()));
  return {
    async cut() {
      down = true;
      for (const ws of open.splice(0)) await ws.close();
    },
    restore() {
      down = false;
    },
  };
}

const status = (page: Page) => page.getByTestId('connection-status').getAttribute('data-status');
const count = (page: Page, testId: string) =>
  page.getByTestId(testId).locator('[data-count]').getAttribute('data-count');

describe('live connection state', () => {
  const run = useProductAndBrowser({ GATEWAY_MAX_TABS_PER_PERSON: '1' });

  it('when socket.io is blocked from the start, then counters show "not loaded" (never 0) while the list has rows, and once it connects they are the server totals', async () => {
    const page = await (await run.context()).newPage();
    const socket = await socketCut(page);
    await socket.cut();
    await signIn(page, run.product.url, ADMIN);
    await page.getByTestId('dashboard').waitFor();
    await expect.poll(() => status(page), { timeout: 20_000 }).toMatch(/reconnecting|offline/);
    expect(await count(page, 'count-complaintsUntreated')).toBe('unknown');
    expect(await page.getByTestId('count-complaintsUntreated').textContent()).not.toContain('0');

    await page.goto(run.product.url + '/complaints-suggestions/index');
    await page.getByTestId('work-table').waitFor();
    await expect.poll(() => page.getByTestId('work-table').locator('tbody tr').count()).toBeGreaterThan(0);
    for (const s of [0, 1, 2, 3]) expect(await count(page, `status-count-${s}`)).toBe('unknown');

    socket.restore();
    await expect.poll(() => status(page), { timeout: 30_000 }).toBe('live');
    const totals = await apiCall<{ untreated: number; processing: number; completed: number }>(
      run.product.url,
      '/complain/query/getComplainStatusTotalVo',
      await apiToken(run.product.url, ADMIN),
      {},
    );
    await expect.poll(() => count(page, 'status-count-1')).toBe(String(totals.untreated));
    expect(await count(page, 'status-count-2')).toBe(String(totals.processing));
    expect(await count(page, 'status-count-3')).toBe(String(totals.completed));
    await page.close();
  });

  it('when the gateway goes away, then the top bar and the dashboard say "offline since hh:mm", and after it is back the counters are live and right', async () => {
    const page = await (await run.context()).newPage();
    const socket = await socketCut(page);
    await signIn(page, run.product.url, STAFF);
    await page.locator('[data-testid=dashboard][data-live=synced]').waitFor({ timeout: 15_000 });
    expect(await status(page)).toBe('live');
    const before = await count(page, 'count-complaintsUntreated');

    await socket.cut();
    await expect.poll(() => status(page), { timeout: 10_000 }).toBe('reconnecting');
    // The figures stay, marked as old, with the time the connection was lost.
    await expect.poll(() => status(page), { timeout: 30_000 }).toBe('offline');
    const text = await page.getByTestId('connection-status').textContent();
    expect(text).toMatch(/^Offline since \d{2}:\d{2}$/);
    await page.getByTestId('dashboard-stale').waitFor();
    expect(await page.getByTestId('dashboard-stale').textContent()).toContain(text!.slice(-5));
    expect(await count(page, 'count-complaintsUntreated')).toBe(before);

    // Meanwhile a resident files a complaint: after the reconnect the count includes it.
    const resident = await apiToken(run.product.url, { username: 'resident1', password: 'resident123' });
    const [house] = await apiCall<{ houseType: number; houseId: number }[]>(
      run.product.url,
      '/app/house/list',
      resident,
    );
    await apiCall(run.product.url, '/app/complain/save', resident, {
      name: 'Filed while offline',
      note: '-',
      houseType: house.houseType,
      houseId: house.houseId,
    });

    socket.restore();
    await expect.poll(() => status(page), { timeout: 30_000 }).toBe('live');
    await expect.poll(() => count(page, 'count-complaintsUntreated')).toBe(String(Number(before) + 1));
    expect(await page.getByTestId('dashboard-stale').count()).toBe(0);
    await page.close();
  });

  it('when the gateway refuses a tab for now (429, too many tabs), then it shows "reconnecting" and connects once a place is free', async () => {
    const context = await run.context();
    const first = await context.newPage();
    await signIn(first, run.product.url, ADMIN2);
    await expect.poll(() => status(first), { timeout: 15_000 }).toBe('live');

    const second = await context.newPage();
    await second.goto(run.product.url + '/dashboard');
    await second.getByTestId('dashboard').waitFor();
    await expect.poll(() => status(second), { timeout: 15_000 }).toBe('reconnecting');
    expect(await count(second, 'count-complaintsUntreated')).toBe('unknown');

    await first.close();
    await expect.poll(() => status(second), { timeout: 45_000 }).toBe('live');
    await second.locator('[data-testid=dashboard][data-live=synced]').waitFor();
    expect(await count(second, 'count-complaintsUntreated')).toMatch(/^\d+$/);
  });
});
