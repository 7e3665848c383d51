// The audit trail tab of enterprise management (issue 30) in the browser: a change made by an
// administrator is listed with who, what and the action, its before and after open in a dialog
// from the keyboard alone, the "what" filter narrows the list; the tab and the dialog in en,
// zh-CN and zh-TW at 390 px without axe-core critical or serious findings (the route walk of
// accessibility.test.ts opens the screen's first tab only, so this file checks this one).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, apiCall, apiToken, axeViolations, blocking, signedInPage, useProductAndBrowser } from '../support/kit';

const PAGE = '/login?redirect=%2Fenterprise-management%2Findex%3Fview%3Daudit';
const SHOTS = process.env.ENTERPRISE_SHOTS;

async function blockingOn(page: Page, screen: string): Promise<string[]> {
  const violations = await axeViolations(page);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${screen}.png`, fullPage: true });
  return blocking(violations).map((v) => `${screen}: ${v.id} ${v.targets.join(' | ')}`);
}

/** Presses Tab until the focused element matches `selector` (at most `max` times). */
async function tabTo(page: Page, selector: string, max = 120): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

describe('the audit trail in the browser', () => {
  const run = useProductAndBrowser();

  /** A department made and renamed through the api, as another tab of the administrator would. */
  const renameADepartment = async () => {
    const token = await apiToken(run.product.url, ADMIN);
    const staff = await apiCall<{ list: { personId: number }[] }>(
      run.product.url,
      '/base/personcompany/page/v4',
      token,
      { page: 1, limit: 1 },
    );
    const principalPersonId = staff.list[0].personId;
    const made = await apiCall<{ departmentId: number }>(run.product.url, '/base/department/save', token, {
      name: 'Audit Garden',
      principalPersonId,
    });
    await apiCall(run.product.url, '/base/department/update', token, {
      departmentId: made.departmentId,
      name: 'Audit Orchard',
      principalPersonId,
    });
  };

  it('when a department is renamed, then the audit tab lists it and its before and after open with the keyboard alone', async () => {
    await renameADepartment();
    const page = await signedInPage(run, ADMIN, { path: PAGE });
    await page.getByTestId('audit-table').waitFor();
    const row = page.locator('[data-testid^=audit-row-]', { hasText: 'Audit Orchard' }).first();
    await row.waitFor();
    expect(await row.textContent()).toContain('Department');
    expect(await row.textContent()).toContain('Changed');
    // The newest change heads the list.
    expect(await page.locator('[data-testid^=audit-row-]').first().textContent()).toContain('Audit Orchard');

    // Its "Changes" link, reached and followed with the keyboard.
    const auditId = (await row.getAttribute('data-testid'))!.replace('audit-row-', '');
    await tabTo(page, `[data-testid=audit-open-${auditId}]`);
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('audit-diff');
    await dialog.waitFor();
    expect(new URL(page.url()).searchParams.get('open')).toBe(auditId);
    const name = dialog.getByTestId('audit-field-name');
    expect(await name.getAttribute('data-changed')).toBe('yes');
    expect(await name.getByTestId('before').textContent()).toBe('Audit Garden');
    expect(await name.getByTestId('after').textContent()).toBe('Audit Orchard');
    expect(await dialog.getByTestId('audit-changed-count').textContent()).toBe('1 field changed');
    expect(await dialog.getByTestId('audit-field-principalName').getAttribute('data-changed')).toBe('no');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('open')).toBeNull();

    // "What": staff changes only; none were made, so nothing matches.
    await tabTo(page, '[data-testid=audit-what]');
    await page.getByTestId('audit-what').selectOption('staff');
    await tabTo(page, '[data-testid=search]');
    await page.keyboard.press('Enter');
    await page.getByTestId('empty-placeholder').waitFor();
    expect(new URL(page.url()).searchParams.get('what')).toBe('staff');
    await page.getByTestId('audit-what').selectOption('department');
    await tabTo(page, '[data-testid=search]');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid^=audit-row-]', { hasText: 'Audit Orchard' }).first().waitFor();
    expect(await page.locator('[data-testid^=audit-row-]').count()).toBe(2);
  });

  it('when the audit tab and a change dialog are shown at 390 px in en, zh-CN and zh-TW, then they are translated and axe finds nothing blocking', async () => {
    const found: string[] = [];
    for (const language of ['en', 'zh-CN', 'zh-TW']) {
      const page = await signedInPage(run, ADMIN, { language, width: 390, path: PAGE });
      await page.locator('[data-testid^=audit-row-]').first().waitFor();
      found.push(...(await blockingOn(page, `audit-${language}-390`)));
      if (language !== 'en')
        expect(await page.getByTestId('audit-tab').textContent()).not.toMatch(/Department|Changed/);
      // No sideways scrolling of the page at 390 px.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.locator('[data-testid^=audit-open-]').first().click();
      await page.getByTestId('audit-diff').waitFor();
      found.push(...(await blockingOn(page, `audit-diff-${language}-390`)));
      if (language !== 'en')
        expect(await page.getByTestId('audit-diff').textContent()).not.toMatch(/Before|After|Name/);
      await page.context().close();
    }
    expect(found).toEqual([]);
  });
});
