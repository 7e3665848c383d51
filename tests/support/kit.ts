// The cross-tier test kit (tests/e2e, tests/ops): start the product as `npm start` does, Debian's
// Chromium, a page signed in as an account in a given language and width, and api calls through
// the gateway as the console and the resident app make them. docs/adding-a-feature.md
// "Tests of a feature" says how a feature's browser test uses it.
import { afterAll, beforeAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { startProduct, type Product, type StartOptions } from './product';

export { axeViolations, blocking, type AxeViolation } from './axe';
export { CHROMIUM_PATH, launchBrowser } from './browser';
export { imageLayout, imageStart, type ImageLayout, type ImageStart } from './dockerfile';
export { freePorts, spawnService, type ServiceProcess } from './processes';
export {
  freePort,
  newDataDir,
  PORT_TAKEN,
  repoRoot,
  seedDataDir,
  startProduct,
  type Product,
  type StartOptions,
} from './product';

export interface Account {
  username: string;
  password: string;
}

export const ADMIN: Account = { username: 'admin', password: 'admin123' };
export const STAFF: Account = { username: 'staff', password: 'staff123' };
/** The administrator of the second tenant (another company and estate). */
export const ADMIN2: Account = { username: 'admin2', password: 'admin123' };
export const RESIDENT: Account = { username: 'resident1', password: 'resident123' };

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

/** POST `${baseUrl}/oauth/token` with the console's client credentials; answers the token (throws unless 200). */
export async function tokenAt(baseUrl: string, user: Account): Promise<string> {
  const res = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: {
      Authorization: 'Basic ' + Buffer.from('console:console-secret').toString('base64'),
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'password', username: user.username, password: user.password }),
  });
  if (res.status !== 200) throw new Error(`sign-in of ${user.username} answered ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Signs in through the gateway's OAuth endpoint (as the console and the resident app do) and answers the token. */
export const apiToken = (url: string, user: Account): Promise<string> => tokenAt(`${url}/api`, user);

/** One api call through the gateway (GET without a body, POST with one); answers `data`, throws unless 200. */
export async function apiCall<T>(url: string, path: string, token: string, body?: object): Promise<T> {
  const res = await fetch(`${url}/api${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { data: T };
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json.data;
}

/**
 * An administrator takes from the role of `holder` every menu entry whose permission matches
 * `perms` (the role edit of issue 30's "Changes take effect at once"), through the api as the
 * console's role screen saves it.
 */
export async function takeFromRoleOf(url: string, holder: Account, perms: RegExp): Promise<void> {
  const admin = await apiToken(url, ADMIN);
  const me = await apiCall<{ roleValue: string }>(url, '/realtime/identity', await apiToken(url, holder));
  const roles = await apiCall<{ list: { roleId: number; roleName: string; roleValue: string }[] }>(
    url,
    '/base/sysrole/page',
    admin,
    { page: 1, limit: 50 },
  );
  const role = roles.list.find((r) => r.roleValue === me.roleValue)!;
  const info = await apiCall<{ menus: { menuId: number; perms: string }[] }>(
    url,
    `/base/sysrole/infoandmenu/${role.roleId}`,
    admin,
  );
  await apiCall(url, '/base/sysrole/saveorupdate', admin, {
    roleId: role.roleId,
    roleName: role.roleName,
    menuIds: info.menus.filter((m) => !perms.test(m.perms)).map((m) => m.menuId),
  });
}

/**
 * A product (with `env` added to its environment; `options` as startProduct takes them) and a
 * browser for one test file: started
 * before its tests, stopped after them, with every browser context the tests open (through
 * `context()`) closed too.
 */
export function useProductAndBrowser(env: Record<string, string> = {}, options: StartOptions = {}) {
  const contexts: BrowserContext[] = [];
  const run = {
    product: undefined as unknown as Product,
    browser: undefined as unknown as Browser,
    async context(language = 'en', width = 1366): Promise<BrowserContext> {
      const c = await newContext(run.browser, run.product.url, language, width);
      contexts.push(c);
      return c;
    },
  };
  beforeAll(async () => {
    run.product = await startProduct(env, options);
    run.browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await run.browser?.close();
    await run.product?.stop();
  });
  return run;
}

/**
 * A new page of its own browser context, signed in as `user` through the login form, in
 * `language` at `width`, starting at `path` (`/login?redirect=…` to land on a screen).
 */
export async function signedInPage(
  run: { context(language?: string, width?: number): Promise<BrowserContext>; product: Product },
  user: Account,
  options: { language?: string; width?: number; path?: string; clock?: boolean } = {},
): Promise<Page> {
  const context = await run.context(options.language, options.width);
  // Playwright's clock, installed before the page loads: time runs as usual until the test pauses
  // it (`page.clock.pauseAt`), to hold a one-second toast still on a loaded runner.
  if (options.clock) await context.clock.install();
  const page = await context.newPage();
  await signIn(page, run.product.url, user, options.path);
  return page;
}
