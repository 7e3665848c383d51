import { afterEach, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { ADMIN, fillLogin, menuEntries, repoRoot, signIn, STAFF, useProductAndBrowser } from '../support/kit';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const zhTW = JSON.parse(readFileSync(join(repoRoot, 'locales', 'zh-TW.json'), 'utf8'));
const en = JSON.parse(readFileSync(join(repoRoot, 'locales', 'en.json'), 'utf8'));

describe('console shell: sign-in, menus, routes and languages', () => {
  const run = useProductAndBrowser();
  let context: BrowserContext | undefined;

  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  it('when admin and staff sign in, then staff sees a smaller menu without instant messaging, disaster warning or the settings gear', async () => {
    context = await run.context();
    const page = await context.newPage();
    await signIn(page, run.product.url, ADMIN);
    await expect.poll(() => page.title()).toBe('Dashboard - Property Management System');
    const adminMenu = await menuEntries(page);
    expect(adminMenu).toContain('/dashboard');
    expect(adminMenu).toContain('/instant-messaging/chat');
    expect(adminMenu).toContain('/disaster-warning/disaster-release');
    expect(await page.getByTestId('settings-gear').count()).toBe(1);
    await context.close();

    context = await run.context();
    const staffPage = await context.newPage();
    await signIn(staffPage, run.product.url, STAFF);
    const staffMenu = await menuEntries(staffPage);
    expect(staffMenu).toContain('/dashboard');
    expect(staffMenu).not.toContain('/instant-messaging/chat');
    expect(staffMenu).not.toContain('/disaster-warning/disaster-release');
    expect(staffMenu.length).toBeLessThan(adminMenu.length);
    expect(staffMenu.every((m) => adminMenu.includes(m))).toBe(true);
    expect(await staffPage.getByTestId('settings-gear').count()).toBe(0);

    // A route the role lacks is not reachable by typing it either.
    await staffPage.goto(run.product.url + '/instant-messaging/chat');
    await staffPage.getByTestId('not-found').waitFor();
    expect(new URL(staffPage.url()).pathname).toBe('/404');
  });

  it('when a visitor opens a screen without signing in, then they sign in and come back to it', async () => {
    context = await run.context();
    const page = await context.newPage();
    await page.goto(run.product.url + '/complaints-suggestions/index');
    await page.waitForURL(/\/login\?redirect=/);
    expect(decodeURIComponent(new URL(page.url()).searchParams.get('redirect') ?? '')).toBe(
      '/complaints-suggestions/index',
    );
    await expect.poll(() => page.getByTestId('version-label').textContent()).toContain('003');
    expect(await page.getByTestId('copyright').textContent()).toContain(`2014-${new Date().getFullYear()}`);
    await fillLogin(page, ADMIN);
    await page.waitForURL(/\/complaints-suggestions\/index$/);
    await page.getByTestId('work-page-complaint').waitFor();
    // A signed-in visitor who opens /login is sent to /.
    await page.goto(run.product.url + '/login');
    await page.waitForURL(/\/dashboard$/);
  });

  it('when the api cannot be reached as a signed-in person reloads, then they stay signed in, it tries again and the screen comes back', async () => {
    context = await run.context();
    const page = await context.newPage();
    await signIn(page, run.product.url, ADMIN);
    await page.getByTestId('dashboard').waitFor();
    // What the gateway answers while the api restarts, for the session's first call.
    let refused = 0;
    await page.route('**/api/auth/current/user', (route) => {
      refused++;
      return route.fulfill({
        status: 502,
        contentType: 'application/json',
        body: JSON.stringify({ code: 502, msg: en.errors.apiUnavailable }),
      });
    });
    await page.reload();
    const waiting = page.locator('[data-testid="session-loading"][data-waiting="true"]');
    await waiting.waitFor();
    expect(await waiting.textContent()).toContain(en.errors.sessionWaiting);
    await expect.poll(() => refused, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await page.unroute('**/api/auth/current/user');
    await page.getByTestId('dashboard').waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');
  });

  it('when a signed-in person opens an unknown path, then the 404 page says the page is lost', async () => {
    context = await run.context();
    const page = await context.newPage();
    await signIn(page, run.product.url, ADMIN);
    await page.goto(run.product.url + '/no/such/screen');
    await page.getByTestId('not-found').waitFor();
    expect(new URL(page.url()).pathname).toBe('/404');
    expect(await page.getByTestId('not-found').textContent()).toContain('The page you are looking for is lost');
  });

  it('when the password is wrong, then the api error shows; after three failures the slider captcha appears', async () => {
    context = await run.context();
    const page = await context.newPage();
    await page.goto(run.product.url + '/login');
    await page.getByTestId('login-submit').click();
    expect(await page.getByText('Please enter the account').count()).toBe(1);
    for (let i = 0; i < 3; i++) {
      // A name no other test signs in with: failures are counted per account name, and the
      // captcha they switch on would stand in the way of the later tests' sign-ins.
      await fillLogin(page, { username: 'intruder', password: `wrong-${i}` });
      await expect.poll(() => page.getByTestId('login-error').textContent(), { timeout: 15_000 }).not.toBe('');
    }
    await page.getByTestId('slider-captcha').waitFor();
    expect(await page.getByTestId('slider-captcha').textContent()).toContain('Please hold down the slider and drag');
  });

  it('when the language is switched to zh-TW and back, then everything changes at once, is kept after reload and saved to the account', async () => {
    context = await run.context();
    const page = await context.newPage();
    await signIn(page, run.product.url, STAFF);
    await page.getByTestId('language-selector').first().click();
    await page.getByTestId('language-zh-TW').click();
    const title = `${zhTW.routes.dashboard} - ${zhTW.app.title}`;
    await expect.poll(() => page.title()).toBe(title);
    expect(await page.getByTestId('sidebar').textContent()).toContain(zhTW.routes.complaintsSuggestions);
    expect(await page.getByTestId('sidebar').textContent()).not.toContain('Dashboard');
    await page.getByText(zhTW.toast.switchLanguage).first().waitFor();
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'language')?.value).toBe('zh-TW');
    await page.reload();
    await page.getByTestId('sidebar').waitFor();
    expect(await page.title()).toBe(title);

    // The current language is disabled in the menu; switching back restores English.
    await page.getByTestId('language-selector').first().click();
    expect(await page.getByTestId('language-zh-TW').getAttribute('class')).toContain('disabled');
    await page.getByTestId('language-en').click();
    await expect.poll(() => page.title()).toBe('Dashboard - Property Management System');
  });

  it('when logging out, then it asks first and the session cookies are cleared', async () => {
    context = await run.context();
    const page = await context.newPage();
    await signIn(page, run.product.url, ADMIN);
    await page.getByTestId('avatar-menu').click();
    await page.getByTestId('menu-logout').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await page.getByTestId('confirm-ok').click();
    await page.waitForURL(/\/login$/);
    const names = (await context.cookies()).map((c) => c.name);
    for (const n of ['Admin-Token', 'roleValue', 'name', 'pId', 'accId']) expect(names).not.toContain(n);
    await page.goto(run.product.url + '/dashboard');
    await page.waitForURL(/\/login\?redirect=/);
  });
});
