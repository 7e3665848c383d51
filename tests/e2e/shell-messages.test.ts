// The message panel's View (issue 6, SPEC §6/§9): a role that lists complaints but may not view
// them gets the resident's reply message (type 13, counted by the bell); View marks it read,
// removes the row, lowers the bell and says "No permission to view the details of this
// information" instead of opening it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, apiCall, apiToken, repoRoot, signIn, useProductAndBrowser } from '../support/kit';

const en = JSON.parse(readFileSync(join(repoRoot, 'locales', 'en.json'), 'utf8'));
const LISTER = { username: 'lister', password: 'Lister123' };
const RESIDENT = { username: 'resident1', password: 'resident123' };

describe('console shell: message panel', () => {
  const run = useProductAndBrowser();

  beforeAll(async () => {
    const url = run.product.url;
    // A role with the open pages and complain:list only, and an account holding it.
    const admin = await apiToken(url, ADMIN);
    const menus = await apiCall<{ list: { menuId: number; perms: string }[] }>(url, '/base/sysmenu/page/v2', admin, {
      page: 1,
      limit: 1000,
    });
    const menuIds = menus.list.filter((m) => m.perms === '' || m.perms === 'complain:list').map((m) => m.menuId);
    const { roleId } = await apiCall<{ roleId: number }>(url, '/base/sysrole/saveorupdate', admin, {
      roleName: 'Complaint listers',
      roleValue: 'LISTER',
      menuIds,
    });
    await apiCall(url, '/account/update', admin, { ...LISTER, name: 'Lee Lister', roleId });
  });

  it('when a person without complain:view views a reply message, then it is read and removed, the bell drops, and no detail opens', async () => {
    const url = run.product.url;
    const resident = await apiToken(url, RESIDENT);
    const houses = await apiCall<{ houseType: number; houseId: number }[]>(url, '/app/house/list', resident);
    const { complainId } = await apiCall<{ complainId: number }>(url, '/app/complain/save', resident, {
      name: 'Bins overflowing',
      note: 'Block A',
      ...houses[0],
    });
    // Nobody has taken it yet, so the reply goes to everyone who lists complaints (message 13).
    await apiCall(url, '/app/complain/reply', resident, { id: complainId, content: 'Any news?' });

    const page = await (await run.context()).newPage();
    await signIn(page, url, LISTER);
    const count = page.getByTestId('message-bell-count');
    await expect.poll(async () => Number((await count.textContent()) ?? 0)).toBeGreaterThan(0);
    const before = Number(await count.textContent());

    await page.getByTestId('message-bell').click();
    const panel = page.getByTestId('notification-panel');
    // The lister's only reply message is this one (a new account).
    const row = panel.getByTestId('notification-row').filter({ hasText: en.messages.types.t13 });
    await row.waitFor();
    const rowsBefore = await panel.getByTestId('notification-row').count();
    await row.getByTestId('notification-view').click();

    const toast = page.getByTestId('toast-error');
    await toast.waitFor();
    expect(await toast.textContent()).toContain(en.errors.noDetailPermission);
    await expect.poll(() => panel.getByTestId('notification-row').count()).toBe(rowsBefore - 1);
    await expect.poll(async () => Number((await count.count()) ? await count.textContent() : 0)).toBe(before - 1);
    expect(new URL(page.url()).pathname).not.toContain('complaints-suggestions');

    // Read on the server too: a fresh unread count agrees.
    const token = await apiToken(url, LISTER);
    const unread = await apiCall<{ total: number }>(url, '/base/message/unRead', token, { messageTypeList: [13] });
    expect(unread.total).toBe(0);
  });
});
