// Enterprise management in the browser (issue 30): an administrator adds a department and a staff
// member with the keyboard alone and finds them in the lists; the enterprise info and hotlines
// are saved; every tab and its add dialog in en, zh-CN and zh-TW at 390 px without axe-core
// critical or serious findings.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, apiToken, axeViolations, blocking, signedInPage, useProductAndBrowser } from '../support/kit';

const PAGE = '/login?redirect=%2Fenterprise-management%2Findex';
const SHOTS = process.env.ENTERPRISE_SHOTS;

async function blockingOn(page: Page, screen: string): Promise<string[]> {
  const violations = await axeViolations(page);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${screen}.png`, fullPage: true });
  return blocking(violations).map((v) => `${screen}: ${v.id} ${v.targets.join(' | ')}`);
}

/** Presses Tab until the focused element matches `selector` (at most `max` times). */
async function tabTo(page: Page, selector: string, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

describe('enterprise management in the browser', () => {
  const run = useProductAndBrowser();

  it('when an administrator uses the keyboard alone, then they add a department and a staff member in it, and both lists show them', async () => {
    const page = await signedInPage(run, ADMIN, { path: PAGE });
    await page.getByTestId('staff-table').waitFor();

    // The department tab, reached by its link.
    await tabTo(page, '[data-testid=enterprise-tab-departments]');
    await page.keyboard.press('Enter');
    await page.getByTestId('department-table').waitFor();
    await tabTo(page, '[data-testid=department-add]');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedId(page)).toBe('department-name');
    await page.keyboard.type('Keyboard Garden Team');
    await tabTo(page, '#department-principal');
    // The staff to choose from are loaded when the dialog opens.
    await page.locator('#department-principal option').nth(1).waitFor({ state: 'attached' });
    await page.keyboard.press('ArrowDown');
    expect(await page.locator('#department-principal').inputValue()).not.toBe('');
    await tabTo(page, '[data-testid=department-save]');
    await page.keyboard.press('Enter');
    await page.getByTestId('department-table').getByText('Keyboard Garden Team').waitFor();

    // The staff tab: add Mei Keyboard into that department.
    await tabTo(page, '[data-testid=enterprise-tab-staff]');
    await page.keyboard.press('Enter');
    await page.getByTestId('staff-table').waitFor();
    await tabTo(page, '[data-testid=staff-add]');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedId(page)).toBe('staff-name');
    await page.keyboard.type('Mei Keyboard');
    await tabTo(page, '#staff-gender');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await tabTo(page, '#staff-staffNumber');
    await page.keyboard.type('KB0001');
    await tabTo(page, '#staff-position');
    await page.keyboard.type('Gardener');
    await tabTo(page, '#staff-yearOfBirth');
    await page.keyboard.type('1991');
    await tabTo(page, '#staff-department');
    await page.locator('#staff-department option', { hasText: 'Keyboard Garden Team' }).waitFor({ state: 'attached' });
    await page.keyboard.type('Keyboard');
    expect(await page.locator('#staff-department option:checked').textContent()).toContain('Keyboard Garden Team');
    await tabTo(page, '[data-testid=staff-save]');
    await page.keyboard.press('Enter');
    const row = page.locator('[data-testid^=staff-row-]', { hasText: 'Mei Keyboard' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Keyboard Garden Team');
    expect(await row.textContent()).toContain('Female');
  });

  it('when the enterprise info and hotlines are saved, then they are read back after a reload', async () => {
    const page = await signedInPage(run, ADMIN, { path: `${PAGE}%3Fview%3Dcompany` });
    await page.getByTestId('company-form').waitFor();
    await page.getByTestId('company-contact-person').locator('input').fill('Mandy Wong');
    await page.getByTestId('company-contact-tel').locator('input').fill('abc');
    await page.getByTestId('company-save').click();
    await page.getByText('Only enter numbers').first().waitFor();
    await page.getByTestId('company-contact-tel').locator('input').fill('+852 2345 0000');
    await page.getByTestId('hotline-add').click();
    const last = page.locator('[data-testid^=hotline-row-]').last();
    await last.locator('input').first().fill('Night repairs');
    await last.locator('input').nth(1).fill('2345 9999');
    await page.getByTestId('company-save').click();
    await page.getByText('Enterprise info saved').waitFor();
    await page.reload();
    await page.getByTestId('company-form').waitFor();
    expect(await page.getByTestId('company-contact-person').locator('input').inputValue()).toBe('Mandy Wong');
    expect(await page.locator('[data-testid^=hotline-row-] input').last().inputValue()).toBe('2345 9999');
  });

  it('when an administrator adds an account, changes its role and resets its password, then the new person signs in with the password shown once', async () => {
    const page = await signedInPage(run, ADMIN, { path: `${PAGE}%3Fview%3Daccounts` });
    await page.getByTestId('account-table').waitFor();
    await page.getByTestId('account-add').click();
    await expect.poll(() => focusedId(page)).toBe('account-username');
    await page.keyboard.type('mei.account');
    await page.locator('#account-password').fill('Secret123');
    await page.locator('#account-name').fill('Mei Account');
    await page.locator('#account-role').selectOption({ label: 'Front desk staff' });
    await page.getByTestId('account-save').click();
    const row = page.locator('[data-testid^=account-row-]', { hasText: 'mei.account' });
    await row.waitFor();
    const accId = (await row.getAttribute('data-testid'))!.replace('account-row-', '');
    await page.getByTestId(`account-role-${accId}`).selectOption({ label: 'Administrator' });
    await page.getByText('The role of mei.account was changed').waitFor();
    await page.getByTestId(`account-reset-${accId}`).click();
    await page.getByTestId('confirm-ok').click();
    const shown = await page.getByTestId('account-new-password').textContent();
    const password = /is (\S+)\. It is shown only now/.exec(shown ?? '')?.[1];
    expect(password).toBeTruthy();
    const token = await apiToken(run.product.url, { username: 'mei.account', password: password! });
    expect(token).toBeTruthy();
    // One's own row has no role select and no buttons.
    expect(await page.locator('[data-testid^=account-role-]').count()).toBeGreaterThan(0);
    expect(await page.getByText('Your own account').count()).toBe(1);
  });

  it('when every tab and its add dialog are shown at 390 px in en, zh-CN and zh-TW, then they are translated and axe finds nothing blocking', async () => {
    const found: string[] = [];
    for (const language of ['en', 'zh-CN', 'zh-TW']) {
      const page = await signedInPage(run, ADMIN, { language, width: 390, path: PAGE });
      await page.locator('[data-testid^=staff-row-]').first().waitFor();
      found.push(...(await blockingOn(page, `staff-${language}-390`)));
      if (language !== 'en')
        expect(await page.getByTestId('enterprise').textContent()).not.toMatch(/Staff number|Position/);
      await page.getByTestId('staff-add').click();
      await page.getByTestId('staff-save').click();
      await page.locator('#staff-form [role=alert]').first().waitFor();
      found.push(...(await blockingOn(page, `staff-add-${language}-390`)));
      await page.keyboard.press('Escape');

      await page.getByTestId('enterprise-tab-departments').click();
      await page.locator('[data-testid^=department-row-]').first().waitFor();
      found.push(...(await blockingOn(page, `departments-${language}-390`)));
      await page.getByTestId('open-detail').first().click();
      await page.getByTestId('department-name').waitFor();
      found.push(...(await blockingOn(page, `department-edit-${language}-390`)));
      await page.keyboard.press('Escape');

      await page.getByTestId('enterprise-tab-accounts').click();
      await page.locator('[data-testid^=account-row-]').first().waitFor();
      found.push(...(await blockingOn(page, `accounts-${language}-390`)));
      await page.getByTestId('account-add').click();
      await page.getByTestId('account-save').click();
      await page.locator('#account-form [role=alert]').first().waitFor();
      found.push(...(await blockingOn(page, `account-add-${language}-390`)));
      await page.keyboard.press('Escape');

      await page.getByTestId('enterprise-tab-company').click();
      await page.getByTestId('company-form').waitFor();
      found.push(...(await blockingOn(page, `company-${language}-390`)));
      if (language !== 'en') expect(await page.getByTestId('company-form').textContent()).not.toMatch(/Contact person/);
      await page.context().close();
    }
    expect(found).toEqual([]);
  });
});
