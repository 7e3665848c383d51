// The shared widgets in Chromium (issue 15 item 6): a dialog takes focus, keeps Tab inside,
// closes on Escape and gives focus back; the date-range picker shows yyyy-MM-dd with Monday
// first in Simplified Chinese; sidebar entries are links reached with Tab.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, menuEntries, repoRoot, signIn, useProductAndBrowser } from '../support/kit';

const zhCN = JSON.parse(readFileSync(join(repoRoot, 'locales', 'zh-CN.json'), 'utf8'));
const LIST = '/complaints-suggestions/index';

/** The focused element: its test id (or tag) and whether it is inside the given test id. */
const focused = (page: Page, within: string) =>
  page.evaluate((w) => {
    const el = document.activeElement;
    return {
      id: el?.getAttribute('data-testid') ?? el?.tagName ?? '',
      inside: !!el?.closest(`[data-testid="${w}"]`),
    };
  }, within);

describe('shared widgets', () => {
  const run = useProductAndBrowser();

  it('when a detail dialog opens, then it is a labelled dialog that holds the focus until Escape gives it back', async () => {
    const page = await (await run.context()).newPage();
    await signIn(page, run.product.url, ADMIN, `/login?redirect=${encodeURIComponent(LIST)}`);
    await page.getByTestId('work-table').waitFor();
    const trigger = page.getByTestId('open-detail').nth(1);
    await trigger.focus();
    await page.keyboard.press('Enter');

    const dialog = page.getByTestId('work-detail');
    await dialog.getByTestId('work-info').waitFor();
    expect(await dialog.getAttribute('role')).toBe('dialog');
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    const title = await page.locator(`[id="${await dialog.getAttribute('aria-labelledby')}"]`).textContent();
    expect(title).toBeTruthy();
    expect(await dialog.getByRole('heading', { level: 2 }).textContent()).toBe(title);
    await expect.poll(async () => (await focused(page, 'work-detail')).inside).toBe(true);

    // Tab and Shift+Tab go round inside the dialog, never to the page behind it.
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press(i < 25 ? 'Tab' : 'Shift+Tab');
      const f = await focused(page, 'work-detail');
      expect(f.inside, `focus left the dialog at step ${i}: ${f.id}`).toBe(true);
      seen.add(f.id);
    }
    expect(seen.has('tab-info')).toBe(true);
    expect(seen.has('tab-reply')).toBe(true);

    // Escape closes it and the focus is back on the link that opened it.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('tr')?.rowIndex ?? -1)).toBe(2); // the second body row (the header row is 0)
    expect((await focused(page, 'work-table')).id).toBe('open-detail');
  });

  it('when a confirmation opens over the dialog, then it has the focus and Escape returns it to the dialog', async () => {
    const page = await (await run.context()).newPage();
    await signIn(page, run.product.url, ADMIN, `/login?redirect=${encodeURIComponent(`${LIST}?status=1`)}`);
    await page.getByTestId('work-table').waitFor();
    await page.getByTestId('open-detail').first().click();
    const dialog = page.getByTestId('work-detail');
    await dialog.getByTestId('deal-button').click();
    // The form's note has the focus when it appears.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('dealNote');
    await page.keyboard.type('Checked the corridor');
    await dialog.getByTestId('deal-submit').click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.waitFor();
    await expect.poll(async () => (await focused(page, 'confirm-dialog')).id).toBe('confirm-ok');
    await page.keyboard.press('Tab');
    expect((await focused(page, 'confirm-dialog')).inside).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => confirm.count()).toBe(0);
    // The detail dialog stays open, holding the focus again, with the note kept.
    await expect.poll(async () => (await focused(page, 'work-detail')).id).toBe('deal-submit');
    expect(await dialog.locator('textarea[name=dealNote]').inputValue()).toBe('Checked the corridor');
  });

  it('when the date picker is used in Simplified Chinese, then weeks start on Monday and dates read yyyy-MM-dd', async () => {
    const page = await (await run.context('zh-CN')).newPage();
    await signIn(page, run.product.url, ADMIN, `/login?redirect=${encodeURIComponent(LIST)}`);
    await page.getByTestId('work-table').waitFor();
    expect(await page.locator('input[type=date]').count()).toBe(0);

    await page.getByTestId('date-calendar-toggle').click();
    const calendar = page.getByTestId('date-calendar');
    await calendar.waitFor();
    const weekdays = await calendar
      .locator('thead th')
      .evaluateAll((ths) => ths.map((th) => th.getAttribute('aria-label')));
    expect(weekdays[0]).toBe('星期一');
    expect(weekdays[6]).toBe('星期日');
    expect(await calendar.locator('[role=grid]').first().getAttribute('aria-label')).toMatch(/\d{4}/);

    // Keyboard only: the calendar has today focused; Enter picks the start, → and Enter the end.
    const today = await page.evaluate(() => {
      const d = new Date();
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('[data-testid=date-calendar]') !== null))
      .toBe(true);
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect.poll(() => calendar.count()).toBe(0);
    expect((await focused(page, 'date-range-picker')).id).toBe('date-calendar-toggle');
    const start = await page.getByTestId('date-start').inputValue();
    const end = await page.getByTestId('date-end').inputValue();
    expect(start).toBe(today);
    expect(end).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Date.parse(end) - Date.parse(start)).toBe(86_400_000);

    // Quick choice "this week" runs Monday to Sunday.
    await page.getByRole('button', { name: zhCN.common.thisWeek }).click();
    const weekStart = await page.getByTestId('date-start').inputValue();
    expect(new Date(`${weekStart}T00:00:00Z`).getUTCDay()).toBe(1);

    // SPEC §5 messages, in Chinese: a wrongly written date, then an end before the start.
    await page.getByTestId('date-end').fill('2026/11/07');
    await page.getByTestId('date-start').focus();
    await page.getByText(zhCN.validation.dateFormat).waitFor();
    await page.getByTestId('date-end').fill('2000-01-01');
    await page.getByText(zhCN.validation.endBeforeStart).waitFor();
    // Escape closes an open calendar and gives the focus back to its button.
    await page.getByTestId('date-calendar-toggle').click();
    await calendar.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => calendar.count()).toBe(0);
    expect((await focused(page, 'date-range-picker')).id).toBe('date-calendar-toggle');
  });

  it('when the person uses Tab, then every sidebar entry is a link they reach, Enter opens it and Ctrl+click opens a new tab', async () => {
    const context = await run.context();
    const page = await context.newPage();
    await signIn(page, run.product.url, ADMIN);
    const entries = await menuEntries(page);
    expect(entries.length).toBeGreaterThan(3);
    const links = await page
      .getByTestId('sidebar')
      .locator('[data-testid^="menu-/"]')
      .evaluateAll((els) => els.map((e) => ({ tag: e.tagName, href: e.getAttribute('href') })));
    expect(links.every((l) => l.tag === 'A')).toBe(true);
    expect(links.map((l) => l.href)).toEqual(entries);

    // From the top of a freshly loaded page, Tab reaches each entry in order.
    await page.reload();
    await page.getByTestId('sidebar').waitFor();
    const reached: string[] = [];
    for (let i = 0; i < 80 && reached.length < entries.length; i++) {
      await page.keyboard.press('Tab');
      const id = (await focused(page, 'sidebar')).id;
      if (id.startsWith('menu-/')) reached.push(id.slice('menu-'.length));
    }
    expect(reached).toEqual(entries);

    // Enter on the complaints entry opens the screen.
    await page.getByTestId(`menu-${LIST}`).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('work-page-complaint').waitFor();
    expect(new URL(page.url()).pathname).toBe(LIST);

    // Ctrl+click on the work-orders entry opens it in a new tab; this one stays.
    const [newTab] = await Promise.all([
      context.waitForEvent('page'),
      page.getByTestId('menu-/event-work-order/index').click({ modifiers: ['ControlOrMeta'] }),
    ]);
    await newTab.getByTestId('work-page-eventOrder').waitFor();
    expect(new URL(newTab.url()).pathname).toBe('/event-work-order/index');
    expect(new URL(page.url()).pathname).toBe(LIST);
  });
});
