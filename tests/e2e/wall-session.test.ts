// Wall screens that run for months (issue 34), in real Chromium against the product as
// `npm start` runs it with short tokens: a wall screen signed in once is still live after three
// lifetimes of its token (its session renews itself while in use), while a staff tab with the
// same TTL is asked to sign in again and lands on the sign-in page; an administrator ending the
// wall account's sessions in the accounts list sends the wall to the sign-in page at once (never
// to the 404 page, which it showed before).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, apiCall, apiToken, fillLogin, signedInPage, useProductAndBrowser } from '../support/kit';

/** The token's lifetime here (seven days in production): three of them pass within the test. */
const TTL_SECONDS = 20;
const WALL = { username: 'wall', password: 'wall123' };
const RESIDENT = { username: 'resident3', password: 'resident123' };

const countOf = (page: Page, testId: string) => page.getByTestId(testId).getAttribute('data-count');

describe('wall sessions', () => {
  const run = useProductAndBrowser({ TOKEN_TTL_SECONDS: String(TTL_SECONDS) });

  async function wallPage(): Promise<Page> {
    const page = await (await run.context('en', 1920)).newPage();
    await page.goto(run.product.url + '/login');
    await fillLogin(page, WALL);
    await page.waitForURL(/\/wall$/, { timeout: 30_000 });
    await page.locator('[data-testid=wall-counts][data-current=true]').waitFor({ timeout: 30_000 });
    return page;
  }

  it('when three lifetimes of the token pass, then the wall screen is still live and current, while a staff tab lands on the sign-in page', async () => {
    const wall = await wallPage();
    const staff = await signedInPage(run, ADMIN, { path: '/login?redirect=%2Fdashboard' });

    await wall.waitForTimeout(3 * TTL_SECONDS * 1000);

    // The staff session ended at its TTL: asked once, "sign in again" leads to the sign-in page.
    await staff.getByTestId('confirm-dialog').waitFor({ timeout: 30_000 });
    await staff.getByTestId('confirm-ok').click();
    await staff.getByTestId('login-form').waitFor();
    expect(new URL(staff.url()).pathname).toBe('/login');

    // The wall is where it was, live, and follows a resident's new complaint.
    expect(new URL(wall.url()).pathname).toBe('/wall');
    expect(await wall.getByTestId('wall-connection').getAttribute('data-status')).toBe('live');
    const before = Number(await countOf(wall, 'wall-complaints-untreated'));
    const token = await apiToken(run.product.url, RESIDENT);
    const [house] = await apiCall<{ houseType: number; houseId: number }[]>(run.product.url, '/app/house/list', token);
    await apiCall(run.product.url, '/app/complain/save', token, { ...house, name: 'Wall: still live', note: '-' });
    await expect.poll(() => countOf(wall, 'wall-complaints-untreated'), { timeout: 10_000 }).toBe(String(before + 1));
    expect(await wall.getByTestId('login-form').count()).toBe(0);
  }, 180_000);

  it("when an administrator ends the wall account's sessions in the accounts list, then the wall screen goes to the sign-in page at once, and back to the wall after signing in", async () => {
    const wall = await wallPage();
    const admin = await signedInPage(run, ADMIN, {
      path: '/login?redirect=%2Fenterprise-management%2Findex%3Fview%3Daccounts',
    });
    await admin.getByTestId('account-table').waitFor();
    await admin.locator('#account-keyword').fill('wall');
    await admin.getByTestId('search').click();
    const row = admin.locator('[data-testid^=account-row-]', { hasText: 'wall' }).first();
    await row.waitFor();
    const accId = (await row.getAttribute('data-testid'))!.replace('account-row-', '');
    await admin.getByTestId(`account-end-sessions-${accId}`).click();
    await admin.getByTestId('confirm-ok').click();
    await admin.getByText('Every session of wall has ended.').waitFor();

    await wall.getByTestId('login-form').waitFor({ timeout: 10_000 });
    const url = new URL(wall.url());
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('redirect')).toBe('/wall');
    await fillLogin(wall, WALL);
    await wall.waitForURL(/\/wall$/, { timeout: 30_000 });
    await wall.locator('[data-testid=wall-counts][data-current=true]').waitFor({ timeout: 30_000 });
  }, 120_000);
});
