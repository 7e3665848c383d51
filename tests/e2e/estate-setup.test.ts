// Basic set-up and ad settings in the browser (issue 33): a setting changed in one tab shows in
// another tab at once (the estate's name and logo in the sidebar, the settings form); the ad
// screen and its dialog used with the keyboard alone (add with two uploaded pictures, move,
// switch off, delete); a `javascript:` jump link refused in the form; both screens and their
// dialogs in en, zh-CN and zh-TW at 390 px without axe-core critical or serious findings.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { FileChooser, Page } from 'playwright-core';
import {
  ADMIN,
  STAFF,
  apiCall,
  apiToken,
  axeViolations,
  blocking,
  signedInPage,
  useProductAndBrowser,
} from '../support/kit';

const SETTINGS = '/login?redirect=%2Fbasic-set-up%2Findex';
const ADS = '/login?redirect=%2Fad-settings%2Findex';
const SHOTS = process.env.SETUP_SHOTS;

/** The blocking axe findings, as lines naming the screen. */
async function blockingOn(page: Page, screen: string): Promise<string[]> {
  const violations = await axeViolations(page); // also waits for transitions to end
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${screen}.png`, fullPage: true });
  return blocking(violations).map((v) => `${screen}: ${v.id} ${v.targets.join(' | ')}`);
}

/** Presses Tab until the focused element matches `selector` (at most `max` times). */
async function tabTo(page: Page, selector: string, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

describe('basic set-up and ad settings in the browser', () => {
  const run = useProductAndBrowser();

  it('when a setting is changed in one tab, then another tab shows it at once: the sidebar name and logo, and the open settings form', async () => {
    const editor = await signedInPage(run, ADMIN, { path: SETTINGS });
    const other = await signedInPage(run, ADMIN, { path: SETTINGS });
    const colleague = await signedInPage(run, STAFF, { path: '/login?redirect=%2Fdashboard' });
    await editor.getByTestId('settings-form').waitFor();
    await other.getByTestId('settings-form').waitFor();
    await expect.poll(() => colleague.getByTestId('sidebar-estate-name').textContent()).toBe('Harbour View Garden');
    // The demo estate has a logo: the sidebar shows it.
    await colleague.getByTestId('sidebar-logo-image').waitFor();

    await editor.getByTestId('estate-name').locator('input').fill('Harbour View Gardens');
    await editor.getByTestId('estate-time-zone').selectOption('Asia/Tokyo');
    const logo = () => colleague.getByTestId('sidebar-logo-image').getAttribute('src');
    const demoLogo = await logo();
    const picture = await sharp({ create: { width: 128, height: 128, channels: 3, background: '#c0392b' } })
      .png()
      .toBuffer();
    await editor
      .getByTestId('estate-logo')
      .getByTestId('picture-input')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: picture });
    await expect
      .poll(() => editor.getByTestId('estate-logo').getByTestId('picture-preview').getAttribute('src'))
      .not.toBe(demoLogo);
    await editor.getByTestId('settings-save').click();
    await editor.getByTestId('settings-updated').waitFor();

    // The other tab's form and every sidebar follow without a reload.
    await expect
      .poll(() => other.getByTestId('estate-name').locator('input').inputValue())
      .toBe('Harbour View Gardens');
    expect(await other.getByTestId('estate-time-zone').inputValue()).toBe('Asia/Tokyo');
    await expect.poll(() => colleague.getByTestId('sidebar-estate-name').textContent()).toBe('Harbour View Gardens');
    await expect.poll(logo).toMatch(/\/api\/upload\/files\/logo\//);

    // An edit in progress is not overwritten: the form says the settings changed.
    await other.getByTestId('estate-address').locator('input').fill('1 Unsaved Street');
    await editor.getByTestId('estate-time-zone').selectOption('Asia/Hong_Kong');
    await editor.getByTestId('estate-name').locator('input').fill('Harbour View Garden');
    await editor.getByTestId('settings-save').click();
    await other.getByTestId('changed-elsewhere').waitFor();
    expect(await other.getByTestId('estate-address').locator('input').inputValue()).toBe('1 Unsaved Street');
    await other.getByTestId('load-changes').click();
    await expect.poll(() => other.getByTestId('estate-name').locator('input').inputValue()).toBe('Harbour View Garden');
    await expect.poll(() => colleague.getByTestId('sidebar-estate-name').textContent()).toBe('Harbour View Garden');
  });

  it('when an administrator uses the ad screen with the keyboard alone, then they add an ad with its pictures, move it, switch it off and delete it, and residents see each step', async () => {
    const page = await signedInPage(run, ADMIN, { path: ADS });
    await page.getByTestId('ad-table').waitFor();
    const resident = await apiToken(run.product.url, { username: 'resident1', password: 'resident123' });
    const admin = await apiToken(run.product.url, ADMIN);
    const served = async () =>
      (await apiCall<{ title: string }[]>(run.product.url, '/app/ad/list', resident)).map((a) => a.title);
    const picture = await sharp({ create: { width: 750, height: 300, channels: 3, background: '#8e44ad' } })
      .png()
      .toBuffer();

    // The file choosers the upload buttons open (listened to from the start: Playwright turns the
    // interception on asynchronously, and a chooser opened before that would be missed).
    const choosers: FileChooser[] = [];
    page.on('filechooser', (c) => choosers.push(c));

    await tabTo(page, '[data-testid=ad-add]');
    await page.keyboard.press('Enter');
    const form = page.getByTestId('ad-form');
    await form.waitFor();
    // The dialog puts the cursor in the title.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('ad-title');
    await page.keyboard.type('Keyboard fair');
    for (const [i, field] of ['ad-image', 'ad-detail-image'].entries()) {
      await tabTo(page, `[data-testid=${field}] [data-testid=picture-upload]`);
      await page.keyboard.press('Enter');
      await expect.poll(() => choosers.length).toBe(i + 1);
      await choosers[i].setFiles({ name: `${field}.png`, mimeType: 'image/png', buffer: picture });
      await form.getByTestId(field).getByTestId('picture-preview').waitFor();
      // The focus stays on the button, for the next step.
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('picture-upload');
    }
    // A javascript: link is refused with the rule, nothing is saved.
    await tabTo(page, '#ad-url');
    await page.keyboard.type('javascript:alert(document.cookie)');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => form.textContent())
      .toContain('The jump link must start with http:// or https://, or name a screen of the resident app');
    expect(await served()).not.toContain('Keyboard fair');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('https://example.com/fair');
    await page.keyboard.press('Enter');
    await form.waitFor({ state: 'detached' });
    const row = page.locator('[data-testid^=ad-row-]', { hasText: 'Keyboard fair' });
    await row.waitFor();
    expect((await served()).at(-1)).toBe('Keyboard fair');

    // Move it up one place with the keyboard: it changes places with the ad before it.
    const order = async () =>
      (await apiCall<{ list: { title: string }[] }>(run.product.url, '/base/ad/page', admin, { limit: 100 })).list.map(
        (a) => a.title,
      );
    const before = await order();
    const at = before.indexOf('Keyboard fair');
    const id = (await row.getAttribute('data-testid'))!.slice('ad-row-'.length);
    await tabTo(page, `[data-testid=move-up-${id}]`);
    await page.keyboard.press('Enter');
    await expect
      .poll(order)
      .toEqual([...before.slice(0, at - 1), 'Keyboard fair', before[at - 1], ...before.slice(at + 1)]);
    // The focus stays on the moved ad's button.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe(`move-up-${id}`);

    // Switch it off (a toggle: Space), then delete it (the confirmation answered with Enter).
    await tabTo(page, `[data-testid=switch-${id}] input`);
    await page.keyboard.press('Space');
    await expect.poll(served).not.toContain('Keyboard fair');
    await tabTo(page, `[data-testid=delete-${id}]`);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).waitFor();
    await tabTo(page, '[role=dialog] button.primary, [role=dialog] .ui.primary.button');
    await page.keyboard.press('Enter');
    await row.waitFor({ state: 'detached' });
  });

  it('when the basic set-up is used with the keyboard alone, then a setting is saved and applies: a new SOS interval shows as set', async () => {
    const page = await signedInPage(run, ADMIN, { path: SETTINGS });
    await page.getByTestId('settings-form').waitFor();
    await tabTo(page, '#estate-sos-seconds');
    await page.keyboard.type('5');
    await page.keyboard.press('Enter');
    // Below the allowed range: the form says so, nothing is sent.
    await expect.poll(() => page.getByTestId('settings-form').textContent()).toContain('from 10 to 3600');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('45');
    await tabTo(page, '#estate-reminder-unit');
    await page.keyboard.press('ArrowDown'); // Minutes
    await tabTo(page, '[data-testid=settings-save]');
    await page.keyboard.press('Enter');
    await page.getByTestId('settings-updated').waitFor();
    const token = await apiToken(run.product.url, ADMIN);
    const settings = await apiCall<{ sosReannounceSeconds: number; voteReminderUnitMs: number }>(
      run.product.url,
      '/base/estate/settings',
      token,
    );
    expect(settings).toMatchObject({ sosReannounceSeconds: 45, voteReminderUnitMs: 60_000 });
    // The vote form counts its reminder interval in the estate's unit at once.
    await page.goto(run.product.url + '/announcement-management/add-announcement');
    await page.getByTestId('editor').waitFor();
    await page.getByTestId('type').selectOption('3');
    await expect
      .poll(() => page.locator('label[for=announcement-reminder]').textContent())
      .toBe('Reminder interval (minutes)');
    await apiCall(run.product.url, '/base/estate/update', token, {
      sosReannounceSeconds: null,
      voteReminderUnitMs: null,
    });
  });

  it('when both screens and their dialogs are shown at 390 px in en, zh-CN and zh-TW, then they are translated and axe finds nothing blocking', async () => {
    const found: string[] = [];
    for (const language of ['en', 'zh-CN', 'zh-TW']) {
      const page = await signedInPage(run, ADMIN, { language, width: 390, path: SETTINGS });
      await page.getByTestId('settings-form').waitFor();
      await page.getByTestId('settings-save').waitFor();
      found.push(...(await blockingOn(page, `basic-set-up-${language}-390`)));
      if (language !== 'en')
        expect(await page.getByTestId('settings-form').textContent()).not.toMatch(/Estate name|Time zone/);
      // The sidebar with its logo, slid in.
      await page.getByTestId('sidebar-toggle').click();
      await page.getByTestId('sidebar-logo-image').waitFor();
      found.push(...(await blockingOn(page, `sidebar-logo-${language}-390`)));
      await page.keyboard.press('Escape');
      await page.goto(run.product.url + '/ad-settings/index');
      await page.locator('[data-testid^=ad-row-]').first().waitFor();
      found.push(...(await blockingOn(page, `ad-settings-${language}-390`)));
      await page.getByTestId('open-detail').first().click();
      await page.getByTestId('ad-form').getByTestId('picture-preview').first().waitFor();
      found.push(...(await blockingOn(page, `ad-edit-${language}-390`)));
      if (language !== 'en')
        expect(await page.getByTestId('ad-form').textContent()).not.toMatch(/Jump link|Detail image/);
      await page.keyboard.press('Escape');
      await page.getByTestId('ad-add').click();
      await page.getByTestId('ad-save').click();
      await page.getByTestId('ad-form').locator('[role=alert]').first().waitFor();
      found.push(...(await blockingOn(page, `ad-add-${language}-390`)));
      await page.context().close();
    }
    expect(found).toEqual([]);
  });
});
