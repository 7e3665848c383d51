import { describe, expect, it } from 'vitest';
import { fillLogin, signedInPage, STAFF, useProductAndBrowser } from '../support/kit';

describe('console shell: change password', () => {
  const run = useProductAndBrowser();

  it('when staff changes the password, then the session ends and only the new password signs in', async () => {
    const page = await signedInPage(run, STAFF);
    const context = page.context();
    await page.getByTestId('avatar-menu').click();
    await page.getByTestId('menu-change-password').click();
    const dialog = page.getByTestId('change-password-dialog');
    await dialog.waitFor();

    // The rules of SPEC §5 show before anything is sent.
    await page.getByTestId('password-submit').click();
    expect(await dialog.textContent()).toContain('Please enter the old password');
    await page.locator('input[name=oldPassword]').fill(STAFF.password);
    await page.locator('input[name=newPassword]').fill(STAFF.password);
    await page.locator('input[name=repeat]').fill('something-else');
    await page.getByTestId('password-submit').click();
    expect(await dialog.textContent()).toContain('The new password must differ from the old one');
    expect(await dialog.textContent()).toContain('The two passwords you entered differ');

    await page.locator('input[name=newPassword]').fill('staff456');
    await page.locator('input[name=repeat]').fill('staff456');
    await page.getByTestId('password-submit').click();
    await page.getByTestId('confirm-dialog').waitFor();
    expect(await page.getByTestId('confirm-dialog').textContent()).toContain('logged out');
    await page.getByTestId('confirm-ok').click();
    await page.waitForURL(/\/login/);
    expect((await context.cookies()).map((c) => c.name)).not.toContain('Admin-Token');

    await fillLogin(page, STAFF);
    await expect.poll(() => page.getByTestId('login-error').textContent(), { timeout: 15_000 }).not.toBe('');
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.locator('input[name=account]').fill('staff');
    await page.locator('input[name=password]').fill('staff456');
    await page.getByTestId('login-submit').click();
    await page.getByTestId('sidebar').waitFor();
    await context.close();
  });
});
