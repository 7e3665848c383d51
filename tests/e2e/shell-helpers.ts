// Helpers shared by the console-shell browser tests (tests/e2e/shell-*.test.ts).
import type { Browser, BrowserContext, Page } from 'playwright-core';

export const ADMIN = { username: 'admin', password: 'admin123' };
export const STAFF = { username: 'staff', password: 'staff123' };

/** A fresh browser context (own cookies) that starts in English unless told otherwise. */
export async function newContext(
  browser: Browser,
  baseUrl: string,
  language = 'en',
  width = 1366,
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-US' });
  await context.addCookies([{ name: 'language', value: language, url: baseUrl }]);
  return context;
}

/** Fills the login form and waits until the layout shows the sidebar. */
export async function signIn(
  page: Page,
  baseUrl: string,
  user: { username: string; password: string },
  path = '/login',
): Promise<void> {
  await page.goto(baseUrl + path);
  await fillLogin(page, user);
  await page.getByTestId('sidebar').waitFor({ timeout: 30_000 });
}

export async function fillLogin(page: Page, user: { username: string; password: string }): Promise<void> {
  await page.locator('input[name=account]').fill(`  ${user.username}  `);
  await page.locator('input[name=password]').fill(user.password);
  await page.getByTestId('login-submit').click();
}

/** The data-testids of the sidebar entries, in order. */
export async function menuEntries(page: Page): Promise<string[]> {
  return page
    .getByTestId('sidebar')
    .locator('[data-testid^="menu-/"]')
    .evaluateAll((els) => els.map((e) => (e.getAttribute('data-testid') ?? '').slice('menu-'.length)));
}
