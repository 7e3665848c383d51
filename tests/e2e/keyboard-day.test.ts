// A whole day's work with the keyboard alone (issue 16): sign in — also past the slider captcha —,
// open every menu entry, switch status tabs, filter, open a record, deal with it, complete it,
// reply, open "more industries", mark a message read, change the language and log out. Only
// Tab, Shift+Tab, Enter, Escape, arrow keys and typing: no click. Every step also checks that
// the focus is somewhere sensible (never lost to the page's body).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, apiCall, apiToken, menuEntries, repoRoot, useProductAndBrowser } from '../support/kit';

const en = JSON.parse(readFileSync(join(repoRoot, 'locales', 'en.json'), 'utf8'));
const zhCN = JSON.parse(readFileSync(join(repoRoot, 'locales', 'zh-CN.json'), 'utf8'));
const RESIDENT = { username: 'resident2', password: 'resident123' };
const THEME = 'Keyboard walk: dripping tap';

/** What has the focus, for messages. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const e = document.activeElement as HTMLElement | null;
    if (!e || e === document.body) return 'body';
    return `${e.tagName.toLowerCase()}[data-testid=${e.dataset.testid ?? ''}] "${(e.getAttribute('aria-label') ?? e.textContent ?? '').trim().slice(0, 40)}"`;
  });

const focusMatches = (page: Page, selector: string) =>
  page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector);

/** Presses Tab (Shift+Tab with `back`) until the focus is on `selector`; fails after `max` presses. */
async function tabTo(page: Page, selector: string, { back = false, max = 60 } = {}): Promise<void> {
  for (let i = 0; i <= max; i++) {
    if (await focusMatches(page, selector)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(
    `${selector} was not reached with ${back ? 'Shift+' : ''}Tab; the focus is on ${await focused(page)}`,
  );
}

/** Presses ↓ until the focus is on `selector` (inside a menu). */
async function arrowTo(page: Page, selector: string, max = 10): Promise<void> {
  for (let i = 0; i <= max; i++) {
    if (await focusMatches(page, selector)) return;
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`${selector} was not reached with ↓; the focus is on ${await focused(page)}`);
}

async function expectFocus(page: Page, selector: string): Promise<void> {
  await expect.poll(async () => ((await focusMatches(page, selector)) ? selector : await focused(page))).toBe(selector);
}

describe('a day at the console with the keyboard only', () => {
  const run = useProductAndBrowser();

  it('when a person works a whole day with the keyboard alone, then every step can be done', async () => {
    const url = run.product.url;
    // A resident's complaint to work on today.
    const resident = await apiToken(url, RESIDENT);
    const [house] = await apiCall<{ houseType: number; houseId: number }[]>(url, '/app/house/list', resident);
    await apiCall(url, '/app/complain/save', resident, {
      name: THEME,
      note: 'In the kitchen',
      houseType: house.houseType,
      houseId: house.houseId,
    });

    const page = await (await run.context()).newPage();
    const keys = page.keyboard;

    // Sign in: three wrong passwords bring the slider captcha, which the keyboard passes.
    await page.goto(url + '/login');
    await tabTo(page, 'input[name=account]');
    await keys.type(ADMIN.username);
    await tabTo(page, 'input[name=password]');
    for (let i = 0; i < 3; i++) {
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/oauth/token'));
      await keys.press('ControlOrMeta+A');
      await keys.type(`wrong-${i}`);
      await keys.press('Enter');
      await answered;
      // Enter submits only once the form is no longer busy.
      await expect.poll(() => page.getByTestId('login-submit').isEnabled()).toBe(true);
    }
    const captcha = page.getByTestId('slider-captcha');
    await captcha.locator('img').first().waitFor();
    await expectFocus(page, 'input[name=password]');
    await keys.press('ControlOrMeta+A');
    await keys.type(ADMIN.password);
    await tabTo(page, '[data-testid=captcha-handle]');
    const handle = page.getByTestId('captcha-handle');
    await keys.press('ArrowRight');
    await keys.press('ArrowRight');
    expect(await handle.getAttribute('aria-valuenow')).toBe('4');
    await keys.press('End');
    expect(Number(await handle.getAttribute('aria-valuenow'))).toBeGreaterThan(200);
    await keys.press('Home');
    expect(await handle.getAttribute('aria-valuenow')).toBe('0');
    // Enter at the far left misses the gap: "failed", and no stale "please drag" under it.
    await keys.press('Enter');
    await expect.poll(() => page.getByTestId('captcha-message').textContent()).toBe(en.captcha.failed);
    expect(await page.getByTestId('login-error').textContent()).not.toContain(en.captcha.drag);
    await expect.poll(() => page.getByTestId('captcha-message').textContent()).toBe(en.captcha.drag);
    await expectFocus(page, '[data-testid=captcha-handle]');
    // The accessible alternative places the piece.
    await tabTo(page, '[data-testid=captcha-place]');
    await keys.press('Enter');
    await expect.poll(() => page.getByTestId('captcha-message').textContent()).toBe(en.captcha.passed);
    await expectFocus(page, '[data-testid=captcha-handle]');
    await tabTo(page, '[data-testid=login-submit]');
    await keys.press('Enter');
    await page.getByTestId('sidebar').waitFor();
    await expectFocus(page, '[data-testid=screen-heading]');

    // Every menu entry, from the sidebar.
    const entries = await menuEntries(page);
    expect(entries.length).toBeGreaterThan(5);
    for (const path of entries) {
      await tabTo(page, `[data-testid="menu-${path}"]`, { back: true });
      await keys.press('Enter');
      await page.waitForURL((u) => u.pathname === path);
      await expectFocus(page, '[data-testid=screen-heading]');
    }

    // Complaints: a status tab, a filter, a record.
    await tabTo(page, '[data-testid="menu-/complaints-suggestions/index"]', { back: true });
    await keys.press('Enter');
    await page.waitForURL(/\/complaints-suggestions\/index$/);
    await page.getByTestId('work-table').waitFor();
    await tabTo(page, '[data-testid=status-tab-1]');
    await keys.press('Enter');
    await page.waitForURL(/status=1/);
    await tabTo(page, '#complaint-keyword');
    await keys.type('dripping tap');
    await keys.press('Enter');
    await page.waitForURL(/q=dripping/);
    const row = page.getByTestId('work-table').locator('tbody tr', { hasText: THEME });
    await row.waitFor();
    await expect.poll(() => page.getByTestId('work-table').locator('tbody tr').count()).toBe(1);
    await tabTo(page, '[data-testid=open-detail]');
    await keys.press('Enter');
    const dialog = page.getByTestId('work-detail');
    await dialog.getByTestId('work-info').waitFor();
    await expectFocus(page, '[role=dialog] *, [role=dialog]');

    // Deal with it, then complete it; after each step the focus goes on to the next one.
    await tabTo(page, '[data-testid=deal-button]');
    await keys.press('Enter');
    await expectFocus(page, 'textarea[name=dealNote]');
    await keys.type('Plumber booked for this afternoon');
    await tabTo(page, '[data-testid=deal-submit]');
    await keys.press('Enter');
    await expectFocus(page, '[data-testid=confirm-ok]');
    await keys.press('Enter');
    await dialog.getByTestId('deal-info').waitFor();
    await expectFocus(page, '[data-testid=complete-button]');
    await keys.press('Enter');
    await expectFocus(page, 'textarea[name=completeNote]');
    await keys.type('Washer replaced');
    await tabTo(page, '[data-testid=complete-submit]');
    await keys.press('Enter');
    await expectFocus(page, '[data-testid=confirm-ok]');
    await keys.press('Enter');
    await dialog.getByTestId('complete-info').waitFor();
    await expectFocus(page, '[data-testid=complete-info] [data-stage-heading]');

    // Reply, then the reporter's other houses ("more industries").
    await tabTo(page, '[data-testid=tab-reply]');
    await keys.press('Enter');
    await tabTo(page, 'textarea[name=replyContent]');
    await keys.type('All done, thank you for your patience');
    await tabTo(page, '[data-testid=reply-submit]');
    await keys.press('Enter');
    await dialog.getByTestId('reply-item').filter({ hasText: 'All done, thank you' }).waitFor();
    await tabTo(page, '[data-testid=tab-info]');
    await keys.press('Enter');
    await tabTo(page, '[data-testid=reporter-link]');
    await keys.press('Enter');
    await page.getByTestId('more-industries').locator('.list, p').first().waitFor();
    await keys.press('Escape');
    await page.getByTestId('more-industries').waitFor({ state: 'hidden' });
    await expectFocus(page, '[data-testid=reporter-link]');
    await keys.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // A message: the bell's panel takes the focus, View marks it read and opens the record.
    const admin = await apiToken(url, ADMIN);
    const unread = async () =>
      (await apiCall<{ total: number }>(url, '/base/message/unRead', admin, { messageTypeList: [50] })).total;
    const before = await unread();
    await tabTo(page, '[data-testid=message-bell]', { back: true });
    await keys.press('Enter');
    await expectFocus(page, '[data-testid=message-bell-panel]');
    await page.getByTestId('message-bell-panel').locator('[data-message-type="50"]').first().waitFor();
    await tabTo(page, '[data-message-type="50"] [data-testid=notification-view]');
    await keys.press('Enter');
    await page.waitForURL(/\/complaints-suggestions\/index\?open=\d+/);
    await dialog.getByTestId('work-info').waitFor();
    await expect.poll(unread).toBe(before - 1);
    await keys.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // The language, from the top bar's menu.
    await tabTo(page, '[data-testid=language-selector]', { back: true });
    await arrowTo(page, '[data-testid=language-zh-CN]');
    await keys.press('Enter');
    await expect.poll(() => page.title()).toContain(zhCN.app.title);

    // Log out, confirmed with the keyboard.
    await tabTo(page, '[data-testid=avatar-menu]');
    await arrowTo(page, '[data-testid=menu-logout]');
    await keys.press('Enter');
    await expectFocus(page, '[data-testid=confirm-ok]');
    await keys.press('Enter');
    await page.waitForURL(/\/login$/);
  });
});
