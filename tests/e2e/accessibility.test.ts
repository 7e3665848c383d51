// axe-core on the built screens (issue 15 item 6): login, dashboard, the complaints list and the
// complaint detail dialog, in English and Simplified Chinese. Any critical or serious violation
// fails the test; every finding (whatever its impact) is printed so the figures can be compared.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, blocking, type AxeViolation } from '../support/axe';
import { ADMIN, signIn, useProductAndBrowser } from './shell-helpers';

const LANGUAGES = ['en', 'zh-CN'] as const;

function report(screen: string, language: string, violations: AxeViolation[]) {
  const summary = violations.map(
    (v) => `${v.impact} ${v.id} (${v.targets.length}): ${v.targets.join(' | ')}\n    ${v.summary}`,
  );
  console.log(
    JSON.stringify({ axe: screen, language, violations: violations.length, blocking: blocking(violations).length }),
  );
  if (summary.length) console.log(summary.join('\n'));
}

/** Checks the page and answers what blocks, as "screen: rule" lines (all screens run before the test asserts). */
async function check(page: Page, screen: string, language: string): Promise<string[]> {
  const violations = await axeViolations(page);
  report(screen, language, violations);
  return blocking(violations).map((v) => `${screen}: ${v.id} ${v.targets.join(' | ')}`);
}

describe('accessibility: axe-core finds no critical or serious violation', () => {
  const run = useProductAndBrowser();

  for (const language of LANGUAGES) {
    it(`when login, dashboard, complaints and a complaint's details are shown in ${language}, then axe finds nothing blocking`, async () => {
      const page = await (await run.context(language)).newPage();
      await page.goto(run.product.url + '/login');
      await page.locator('input[name=account]').waitFor();
      const found = await check(page, 'login', language);

      await signIn(page, run.product.url, ADMIN);
      await page.locator('[data-testid=dashboard][data-live=synced]').waitFor({ timeout: 15_000 });
      found.push(...(await check(page, 'dashboard', language)));

      await page.goto(run.product.url + '/complaints-suggestions/index?status=1');
      await page.getByTestId('work-table').waitFor();
      await page.getByTestId('list-pagination').waitFor();
      found.push(...(await check(page, 'complaints', language)));
      // Pagination is read out in the page's language ("上一页", not "Previous item").
      const labels = await page
        .getByTestId('list-pagination')
        .locator('[aria-label]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
      expect(labels.length).toBeGreaterThan(1);
      if (language !== 'en') expect(labels.filter((l) => /[A-Za-z]/.test(l))).toEqual([]);
      await page.getByTestId('date-calendar-toggle').click();
      await page.getByTestId('date-calendar').waitFor();
      found.push(...(await check(page, 'complaints-calendar', language)));
      await page.keyboard.press('Escape');

      // The detail dialog: its info tab with the deal form open, then its reply tab.
      await page.getByTestId('open-detail').first().click();
      const dialog = page.getByTestId('work-detail');
      await dialog.getByTestId('work-info').waitFor();
      await dialog.getByTestId('deal-button').click();
      await dialog.getByTestId('deal-form').waitFor();
      found.push(...(await check(page, 'complaint-detail', language)));
      await dialog.getByTestId('tab-reply').click();
      await dialog.getByTestId('work-replies').waitFor();
      found.push(...(await check(page, 'complaint-replies', language)));
      expect(found).toEqual([]);
    });
  }
});
