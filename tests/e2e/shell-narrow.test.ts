// The console on a phone-sized window (issue 6): the sidebar is off-canvas until the top bar's
// button slides it in, choosing a page closes it, and the message panel stays inside the window.
import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { ADMIN, signIn, useProductAndBrowser } from '../support/kit';

const WIDTH = 390;

/** The element's box within the window's width (it is on screen). */
async function onScreen(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  return box !== null && box.x >= -1 && box.x + box.width <= WIDTH + 1 && box.width > 0;
}

describe('console shell: narrow window', () => {
  const run = useProductAndBrowser();

  it('when the window is 390 px wide, then the menu slides in on demand, closes on navigation, and panels fit the window', async () => {
    const page = await (await run.context('zh-TW', WIDTH)).newPage();
    await signIn(page, run.product.url, ADMIN);
    // Signed in, the console lands on / and then goes on to /dashboard once the menus are known: a
    // navigation closes the slid-in menu, so a click before it lands was undone on a loaded runner.
    await page.waitForURL(/\/dashboard$/);
    const sidebar = page.getByTestId('sidebar');
    await expect.poll(() => onScreen(sidebar)).toBe(false);
    // The page content uses the whole width.
    const content = await page.locator('.app-content').boundingBox();
    expect(content!.x).toBeLessThan(5);

    await page.getByTestId('sidebar-toggle').click();
    await expect.poll(() => onScreen(sidebar)).toBe(true);
    await page.getByTestId('sidebar-backdrop').waitFor();
    await sidebar.locator('[data-testid="menu-/complaints-suggestions/index"]').click();
    await page.getByTestId('work-page-complaint').waitFor();
    await expect.poll(() => onScreen(sidebar)).toBe(false);
    expect(await page.getByTestId('sidebar-backdrop').count()).toBe(0);

    await page.getByTestId('message-bell').click();
    const panel = page.locator('.bell-popup');
    await panel.waitFor();
    await expect.poll(() => onScreen(panel)).toBe(true);
  });
});
