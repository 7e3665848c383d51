// A session that ends elsewhere (issue 6, SPEC §8): the next call answers 401 and the console
// asks once — "sign in again" resets and reloads to the login page, "stay" resets and stays.
// Also the top bar's error-log button, which appears once a client error was collected.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, repoRoot, signIn, useProductAndBrowser } from '../support/kit';

const en = JSON.parse(readFileSync(join(repoRoot, 'locales', 'en.json'), 'utf8'));

/**
 * Waits for the "session ended" prompt: the gateway's session event may already have raised it;
 * otherwise the next call (a search) answers 401 and raises it.
 */
async function sessionPrompt(page: Page) {
  const prompt = page.getByTestId('confirm-dialog');
  await page.waitForTimeout(300);
  if (!(await prompt.isVisible()))
    await page
      .getByTestId('search')
      .click({ timeout: 5_000 })
      .catch(() => undefined);
  await prompt.waitFor();
  return prompt;
}

/** Ends the page's session from outside (as a sign-out in another browser would). */
async function revokeSession(page: Page, url: string): Promise<void> {
  const token = (await page.context().cookies()).find((c) => c.name === 'Admin-Token')?.value;
  expect(token).toBeTruthy();
  const res = await fetch(`${url}/api/auth/signOut`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
}

describe('console shell: session ended elsewhere', () => {
  const run = useProductAndBrowser();

  async function signedInOnComplaints(): Promise<Page> {
    const page = await (await run.context()).newPage();
    await signIn(page, run.product.url, ADMIN, '/login?redirect=/complaints-suggestions/index');
    await page.getByTestId('work-table').waitFor();
    return page;
  }

  it('when the token is revoked and the person chooses to stay, then the prompt shows once and the session cookies are cleared', async () => {
    const page = await signedInOnComplaints();
    await revokeSession(page, run.product.url);
    const prompt = await sessionPrompt(page);
    expect(await prompt.textContent()).toContain(en.errors.loggedOut);
    expect(await page.getByTestId('confirm-dialog').count()).toBe(1);
    await page.getByTestId('confirm-cancel').click();
    await expect.poll(async () => (await page.context().cookies()).some((c) => c.name === 'Admin-Token')).toBe(false);
    expect(new URL(page.url()).pathname).toBe('/complaints-suggestions/index');
  });

  it('when the token is revoked and the person chooses to sign in again, then the page reloads to the login form', async () => {
    const page = await signedInOnComplaints();
    await revokeSession(page, run.product.url);
    await sessionPrompt(page);
    await page.getByTestId('confirm-ok').click();
    await page.getByTestId('login-form').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('when a script error happens in the page, then the error-log button appears and lists it in a draggable dialog', async () => {
    const page = await signedInOnComplaints();
    expect(await page.getByTestId('error-log').count()).toBe(0);
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('widget exploded');
      });
    });
    await page.getByTestId('error-log').click();
    const dialog = page.locator('.ui.modal', { hasText: 'widget exploded' });
    await dialog.waitFor();
    // Dragged by its title bar, it moves with the pointer.
    const header = dialog.locator('.draggable-header');
    const before = (await dialog.boundingBox())!;
    const at = (await header.boundingBox())!;
    await page.mouse.move(at.x + 20, at.y + 10);
    await page.mouse.down();
    await page.mouse.move(at.x + 120, at.y + 70, { steps: 5 });
    await page.mouse.up();
    const after = (await dialog.boundingBox())!;
    expect(Math.round(after.x - before.x)).toBe(100);
    expect(Math.round(after.y - before.y)).toBe(60);
  });
});
