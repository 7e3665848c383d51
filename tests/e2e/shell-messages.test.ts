// The message panel's View (issue 6, SPEC §6/§9): a role that lists complaints but may not view
// them gets the resident's reply message (type 13, counted by the bell); View marks it read,
// removes the row, lowers the bell and says "No permission to view the details of this
// information" instead of opening it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { repoRoot, startProduct, type Product } from '../support/product';
import { newContext, signIn } from './shell-helpers';

const en = JSON.parse(readFileSync(join(repoRoot, 'locales', 'en.json'), 'utf8'));
const LISTER = { username: 'lister', password: 'Lister123' };

async function call<T>(url: string, path: string, token: string | null, body?: object): Promise<T> {
  const res = await fetch(`${url}/api${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { data: T };
  expect(res.status, `${path}: ${JSON.stringify(json)}`).toBe(200);
  return json.data;
}

async function signInApi(url: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/oauth/token`, {
    method: 'POST',
    headers: {
      Authorization: 'Basic ' + Buffer.from('console:console-secret').toString('base64'),
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'password', username, password }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

describe('console shell: message panel', () => {
  let product: Product;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
    // A role with the open pages and complain:list only, and an account holding it.
    const admin = await signInApi(product.url, 'admin', 'admin123');
    const menus = await call<{ list: { menuId: number; perms: string }[] }>(
      product.url,
      '/base/sysmenu/page/v2',
      admin,
      { page: 1, limit: 1000 },
    );
    const menuIds = menus.list.filter((m) => m.perms === '' || m.perms === 'complain:list').map((m) => m.menuId);
    const { roleId } = await call<{ roleId: number }>(product.url, '/base/sysrole/saveorupdate', admin, {
      roleName: 'Complaint listers',
      roleValue: 'LISTER',
      menuIds,
    });
    await call(product.url, '/account/update', admin, { ...LISTER, name: 'Lee Lister', roleId });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await product?.stop();
  });

  it('when a person without complain:view views a reply message, then it is read and removed, the bell drops, and no detail opens', async () => {
    const resident = await signInApi(product.url, 'resident1', 'resident123');
    const houses = await call<{ houseType: number; houseId: number }[]>(product.url, '/app/house/list', resident);
    const { complainId } = await call<{ complainId: number }>(product.url, '/app/complain/save', resident, {
      name: 'Bins overflowing',
      note: 'Block A',
      ...houses[0],
    });
    // Nobody has taken it yet, so the reply goes to everyone who lists complaints (message 13).
    await call(product.url, '/app/complain/reply', resident, { id: complainId, content: 'Any news?' });

    context = await newContext(browser, product.url);
    const page = await context.newPage();
    await signIn(page, product.url, LISTER);
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
    const token = await signInApi(product.url, LISTER.username, LISTER.password);
    const unread = await call<{ total: number }>(product.url, '/base/message/unRead', token, { messageTypeList: [13] });
    expect(unread.total).toBe(0);
  });
});
