// Roles and the staff import of enterprise management in the browser (issue 30): an administrator
// makes a role with menus by keyboard alone, gives it to a person, is refused deleting it while
// held, then deletes it with the holder moved; a staff file with one bad row is previewed with
// that row named and nothing written, the corrected file imports once. The tab and its dialogs
// in en, zh-CN and zh-TW at 390 px without axe-core critical or serious findings.
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, apiCall, apiToken, axeViolations, blocking, signedInPage, useProductAndBrowser } from '../support/kit';

const PAGE = '/login?redirect=%2Fenterprise-management%2Findex';
const ROLES = `${PAGE}%3Fview%3Droles`;
const SHOTS = process.env.ENTERPRISE_SHOTS;

async function blockingOn(page: Page, screen: string): Promise<string[]> {
  const violations = await axeViolations(page);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${screen}.png`, fullPage: true });
  return blocking(violations).map((v) => `${screen}: ${v.id} ${v.targets.join(' | ')}`);
}

/** Presses Tab until the focused element matches `selector` (at most `max` times). */
async function tabTo(page: Page, selector: string, max = 200): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

async function staffFile(rows: (string | number)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Staff');
  sheet.addRow(['Staff number', 'Name', 'Gender', 'Phone', 'Position', 'Year of birth', 'Department']);
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

const xlsx = (name: string, buffer: Buffer) => ({
  name,
  mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  buffer,
});

describe('enterprise management: roles and the staff import in the browser', () => {
  const run = useProductAndBrowser();

  it('when an administrator makes a role with menus by keyboard, gives it to a person and deletes it, then the delete is refused while held and done with the holder moved', async () => {
    const token = await apiToken(run.product.url, ADMIN);
    await apiCall(run.product.url, '/account/update', token, {
      username: 'e2e.holder',
      password: 'Secret123',
      name: 'Rolf Holder',
    });
    const page = await signedInPage(run, ADMIN, { path: ROLES });
    await page.locator('[data-testid^=role-row-]').first().waitFor();

    // Add the role with the keyboard alone.
    await tabTo(page, '[data-testid=role-add]');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('role-name');
    await page.keyboard.type('Complaint desk');
    await tabTo(page, '#role-value');
    await page.keyboard.type('COMPLAINT_DESK');
    await page.locator('[data-testid="menu-check-/complaints-suggestions"]').waitFor();
    await tabTo(page, '[data-testid="menu-check-/complaints-suggestions"]');
    await page.keyboard.press('Space');
    // The screen's operate authority comes with it.
    expect(await page.getByTestId('menu-check-complain:view').isChecked()).toBe(true);
    expect(await page.locator('[data-testid="menu-check-/announcement-management"]').isChecked()).toBe(false);
    await tabTo(page, '[data-testid=role-save]');
    await page.keyboard.press('Enter');
    const row = page.locator('[data-testid^=role-row-]', { hasText: 'Complaint desk' });
    await row.waitFor();
    const roleId = Number((await row.getAttribute('data-testid'))!.replace('role-row-', ''));
    const info = await apiCall<{ menus: { perms: string }[] }>(
      run.product.url,
      `/base/sysrole/infoandmenu/${roleId}`,
      token,
    );
    expect(new Set(info.menus.map((m) => m.perms))).toEqual(
      new Set(['complain:list', 'complain:view', 'complain:reply', 'complain:update']),
    );

    // Give it to Rolf Holder.
    await page.getByTestId(`role-holders-${roleId}`).click();
    const holders = page.getByTestId('role-holders');
    await holders.locator('#role-candidate-keyword').fill('Rolf');
    await holders.locator('#role-candidate-keyword').press('Enter');
    const candidate = holders.locator('[data-testid^=role-candidate-row-]', { hasText: 'Rolf Holder' });
    await candidate.waitFor();
    await expect.poll(() => holders.locator('[data-testid^=role-candidate-row-]').count()).toBe(1);
    await candidate.locator('input[type=checkbox]').check();
    await holders.getByTestId('role-assign').click();
    await holders.getByTestId('role-holder-table').getByText('Rolf Holder').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => row.getByTestId(`role-holders-${roleId}`).textContent()).toBe('1');

    // Held: refused, with the reason.
    await page.getByTestId(`role-delete-${roleId}`).click();
    const dialog = page.getByTestId('role-delete-dialog');
    await dialog.getByTestId('role-delete-confirm').click();
    expect(await dialog.getByTestId('role-delete-refused').textContent()).toContain(
      'Complaint desk is still held by 1 person(s)',
    );
    expect(await row.isVisible()).toBe(true);
    // Moved and deleted in one step.
    await dialog.locator('#role-move-to').selectOption({ label: 'Front desk staff' });
    await dialog.getByTestId('role-delete-confirm').click();
    await row.waitFor({ state: 'detached' });
    const accounts = await apiCall<{ list: { roleName: string | null }[] }>(run.product.url, '/account/page', token, {
      keyword: 'e2e.holder',
    });
    expect(accounts.list.map((a) => a.roleName)).toEqual(['Front desk staff']);
  });

  it('when a staff file with one bad row is chosen, then the preview names it and nothing is written; the corrected file imports once', async () => {
    const token = await apiToken(run.product.url, ADMIN);
    const numbered = async (q: string) =>
      (await apiCall<{ total: number }>(run.product.url, '/base/personcompany/page/v1', token, { keyword: q })).total;
    const page = await signedInPage(run, ADMIN, { path: PAGE });
    await page.getByTestId('staff-table').waitFor();
    await page.getByTestId('staff-import').click();
    const dialog = page.getByTestId('staff-import-dialog');
    const download = page.waitForEvent('download');
    await dialog.getByTestId('staff-import-template').click();
    expect((await download).suggestedFilename()).toBe('staff-template.xlsx');

    await dialog.locator('#staff-import-file').setInputFiles(
      xlsx(
        'staff.xlsx',
        await staffFile([
          ['XL001', 'Xia Import', 2, '91234567', 'Cleaner', 1990, ''],
          ['XL002', 'Xu Import', 1, '12ab', 'Guard', 1985, ''],
        ]),
      ),
    );
    await dialog.getByTestId('staff-import-refused').waitFor();
    const errors = await dialog.getByTestId('staff-import-error').allTextContents();
    expect(errors).toEqual(['3PhoneOnly enter numbers']);
    expect(await dialog.getByTestId('staff-import-confirm').count()).toBe(0);
    expect(await numbered('XL00')).toBe(0);

    const good = await staffFile([
      ['XL001', 'Xia Import', 2, '91234567', 'Cleaner', 1990, ''],
      ['XL002', 'Xu Import', 1, '91234568', 'Guard', 1985, ''],
    ]);
    await dialog.locator('#staff-import-file').setInputFiles(xlsx('staff-fixed.xlsx', good));
    await dialog.getByTestId('staff-import-ready').waitFor();
    expect(await dialog.getByTestId('staff-import-ready').textContent()).toContain('2 new and 0 updated');
    expect(await numbered('XL00')).toBe(0);
    await dialog.getByTestId('staff-import-confirm').click();
    await page.getByText('2 rows imported: 2 new, 0 updated').waitFor();
    await page.locator('[data-testid^=staff-row-]', { hasText: 'Xia Import' }).waitFor();
    expect(await numbered('XL00')).toBe(2);

    // The same file again updates the two, adding nobody.
    await page.getByTestId('staff-import').click();
    await dialog.locator('#staff-import-file').setInputFiles(xlsx('staff-fixed.xlsx', good));
    await dialog.getByTestId('staff-import-ready').waitFor();
    expect(await dialog.getByTestId('staff-import-ready').textContent()).toContain('0 new and 2 updated');
    await dialog.getByTestId('staff-import-confirm').click();
    await page.getByText('2 rows imported: 0 new, 2 updated').waitFor();
    expect(await numbered('XL00')).toBe(2);
  });

  it('when the roles tab, its dialogs and the import preview are shown at 390 px in en, zh-CN and zh-TW, then they are translated and axe finds nothing blocking', async () => {
    const found: string[] = [];
    const bad = await staffFile([['AX1', '', 1, 'abc', 'Guard', 1985, 'Nowhere']]);
    for (const language of ['en', 'zh-CN', 'zh-TW']) {
      const page = await signedInPage(run, ADMIN, { language, width: 390, path: ROLES });
      await page.locator('[data-testid^=role-row-]').first().waitFor();
      found.push(...(await blockingOn(page, `roles-${language}-390`)));
      if (language !== 'en') expect(await page.getByTestId('role-tab').textContent()).not.toMatch(/Role name|Holders/);
      // The page never scrolls sideways at 390 px.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      await page.getByTestId('role-add').click();
      await page.getByTestId('role-save').click();
      await page.locator('#role-form [role=alert]').first().waitFor();
      found.push(...(await blockingOn(page, `role-add-${language}-390`)));
      await page.keyboard.press('Escape');

      await page.getByTestId('open-detail').first().click();
      await page.getByTestId('role-menus').locator('input[type=checkbox]').first().waitFor();
      found.push(...(await blockingOn(page, `role-edit-${language}-390`)));
      await page.keyboard.press('Escape');

      const held = page.locator('[data-testid^=role-holders-]').filter({ hasNotText: /^0$/ }).first();
      await held.click();
      await page.getByTestId('role-holder-table').waitFor();
      await page.getByTestId('role-candidate-table').waitFor();
      found.push(...(await blockingOn(page, `role-holders-${language}-390`)));
      await page.keyboard.press('Escape');

      const deletable = page.locator('[data-testid^=role-row-]', { has: page.locator('[data-testid^=role-delete-]') });
      const heldRow = deletable.filter({ has: page.locator('[data-testid^=role-holders-]', { hasNotText: /^0$/ }) });
      await heldRow.first().locator('[data-testid^=role-delete-]').click();
      await page.getByTestId('role-delete-confirm').click();
      await page.getByTestId('role-delete-refused').waitFor();
      found.push(...(await blockingOn(page, `role-delete-${language}-390`)));
      if (language !== 'en')
        expect(await page.getByTestId('role-delete-refused').textContent()).toMatch(/[\u4e00-\u9fff]/);
      await page.keyboard.press('Escape');

      await page.getByTestId('enterprise-tab-staff').click();
      await page.getByTestId('staff-import').click();
      await page.locator('#staff-import-file').setInputFiles(xlsx('bad.xlsx', bad));
      await page.getByTestId('staff-import-refused').waitFor();
      found.push(...(await blockingOn(page, `staff-import-${language}-390`)));
      if (language !== 'en')
        expect(await page.getByTestId('staff-import-errors').textContent()).toMatch(/[\u4e00-\u9fff]/);
      await page.context().close();
    }
    expect(found).toEqual([]);
  });
});
