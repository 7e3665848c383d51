// Issue 30 "Changes take effect at once", the tab that was loading while the change went out: it
// read its profile (menu, permissions) BEFORE an administrator edited its role, and its live
// socket connects only AFTER the edit, so no access push ever reached it. The socket's handshake
// carries the digest of the profile the tab shows (`accessDigest`); the gateway sees it differs
// from the permissions as they are now and tells the tab, which reads its profile again: the new
// menu, still signed in. The socket is held by the browser's WebSocket routing until the edit is saved.
import { describe, expect, it } from 'vitest';
import { ADMIN, STAFF, apiCall, apiToken, menuEntries, signIn, useProductAndBrowser } from '../support/kit';

interface Menu {
  menuId: number;
  perms: string;
}

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

    const url = run.product.url;
    const admin = await apiToken(url, ADMIN);
    const staff = await apiToken(url, STAFF);
    const me = await apiCall<{ roleValue: string }>(url, '/realtime/identity', staff);
    const roles = await apiCall<{ list: { roleId: number; roleName: string; roleValue: string }[] }>(
      url,
      '/base/sysrole/page',
      admin,
      { page: 1, limit: 50 },
    );
    const role = roles.list.find((r) => r.roleValue === me.roleValue)!;
    const info = await apiCall<{ menus: Menu[] }>(url, `/base/sysrole/infoandmenu/${role.roleId}`, admin);
    await apiCall(url, '/base/sysrole/saveorupdate', admin, {
      roleId: role.roleId,
      roleName: role.roleName,
      menuIds: info.menus.filter((m) => !/eventorder/.test(m.perms)).map((m) => m.menuId),
    });
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
