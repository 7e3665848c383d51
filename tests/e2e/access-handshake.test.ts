// Issue 30 "Changes take effect at once", the tab that was loading while the change went out: it
// read its profile (menu, permissions) BEFORE an administrator edited its role, and its live
// socket connects only AFTER the edit, so no access push ever reached it. The socket's handshake
// carries the digest of the profile the tab shows (`accessDigest`); the gateway sees it differs
// from the permissions as they are now and tells the tab, which reads its profile again: the new
// menu, still signed in. The socket is held by the browser's WebSocket routing until the edit is saved.
import { describe, expect, it } from 'vitest';
import { STAFF, menuEntries, signIn, takeFromRoleOf, useProductAndBrowser } from '../support/kit';

describe('a tab whose socket connects after a role edit its profile predates', () => {
  const run = useProductAndBrowser();

  it('when the staff role loses work orders between the tab’s profile and its socket, then the tab ends with the new menu', async () => {
    const page = await (await run.context()).newPage();
    // The live socket waits here until the edit is saved.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let held = 0;
    await page.routeWebSocket(/\/socket\.io\//, async (ws) => {
      held++;
      await released;
      ws.connectToServer();
    });
    await signIn(page, run.product.url, STAFF);
    await expect.poll(() => menuEntries(page)).toContain('/event-work-order/index');
    await expect.poll(() => held).toBeGreaterThan(0);
    expect(await page.getByTestId('connection-status').getAttribute('data-status')).not.toBe('live');

    await takeFromRoleOf(run.product.url, STAFF, /eventorder/);
    // Saved, and the tab still shows the profile it loaded: nothing has told it yet.
    expect(await menuEntries(page)).toContain('/event-work-order/index');

    release();
    await expect.poll(() => page.getByTestId('connection-status').getAttribute('data-status')).toBe('live');
    await expect.poll(() => menuEntries(page)).not.toContain('/event-work-order/index');
    expect(await menuEntries(page)).toContain('/complaints-suggestions/index');
    // Still signed in: no sign-in prompt, no login page.
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(page.url()).not.toMatch(/\/login/);
  });
});
