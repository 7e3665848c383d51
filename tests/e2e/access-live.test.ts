// Issue 30 "Changes take effect at once", in the browser: an administrator takes a screen from a
// role while a holder has it open; the holder's menu loses it and the screen closes with a clear
// message, landing on an allowed screen, without being asked to sign in again.
import { describe, expect, it } from 'vitest';
import { STAFF, menuEntries, signedInPage, takeFromRoleOf, useProductAndBrowser } from '../support/kit';

describe('a role edit reaches the open tabs of its holders', () => {
  const run = useProductAndBrowser();

  it('when the staff role loses work orders, then the open work-order screen closes with a message and the menu changes, still signed in', async () => {
    const page = await signedInPage(run, STAFF, { path: '/login?redirect=%2Fevent-work-order%2Findex' });
    await expect.poll(() => menuEntries(page)).toContain('/event-work-order/index');
    await page.waitForURL(/\/event-work-order\/index/);
    await expect.poll(() => page.getByTestId('connection-status').getAttribute('data-status')).toBe('live');

    await takeFromRoleOf(run.product.url, STAFF, /eventorder/);

    const urls: string[] = [];
    page.on('framenavigated', (f) => urls.push(new URL(f.url()).pathname));
    await page.waitForURL(/\/dashboard$/);
    const notice = page.getByTestId('toast-warning');
    await expect.poll(() => notice.textContent()).toMatch(/can no longer open “Event work order/);
    await expect.poll(() => menuEntries(page)).not.toContain('/event-work-order/index');
    expect(await menuEntries(page)).toContain('/complaints-suggestions/index');
    // Straight to the allowed screen: never through "not found".
    expect(urls).not.toContain('/404');
    // Still signed in: no sign-in prompt, no login page, and the screens left work.
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(page.url()).not.toMatch(/\/login/);
    await page.getByTestId('menu-/complaints-suggestions/index').click();
    await page.waitForURL(/\/complaints-suggestions\/index/);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });
});
