import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { startProduct, type Product } from '../support/product';
import { ADMIN, newContext, signIn } from './shell-helpers';

/** Signs in as a resident through the same OAuth endpoint the mobile app uses. */
async function residentToken(url: string): Promise<string> {
  const res = await fetch(`${url}/api/oauth/token`, {
    method: 'POST',
    headers: {
      Authorization: 'Basic ' + Buffer.from('console:console-secret').toString('base64'),
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'password', username: 'resident1', password: 'resident123' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function fileComplaint(url: string, token: string): Promise<void> {
  const auth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const houses = (await (await fetch(`${url}/api/app/house/list`, { headers: auth })).json()) as {
    data: { houseType: number; houseId: number }[];
  };
  const house = houses.data[0];
  const res = await fetch(`${url}/api/app/complain/save`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      name: 'Lift is stuck',
      note: 'Block A lift stops between floors',
      houseType: house.houseType,
      houseId: house.houseId,
    }),
  });
  expect(res.status).toBe(200);
}

const untreated = async (page: Page) => Number(await page.getByTestId('count-complaintsUntreated').textContent());

describe('console shell: live counters', () => {
  let product: Product;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await product?.stop();
  });

  it('when a resident files a complaint, then the untreated count rises in two open tabs without reload', async () => {
    context = await newContext(browser, product.url);
    const first = await context.newPage();
    await signIn(first, product.url, ADMIN);
    const second = await context.newPage();
    await second.goto(product.url + '/dashboard');
    await second.getByTestId('dashboard').waitFor();
    // Both tabs are connected to the gateway and hold the same snapshot before the event.
    for (const p of [first, second])
      await p.locator('[data-testid=dashboard][data-live=synced]').waitFor({ timeout: 15_000 });
    await expect
      .poll(async () => (await untreated(first)) === (await untreated(second)), { timeout: 15_000 })
      .toBe(true);
    const before = await untreated(first);
    const navigations: string[] = [];
    for (const p of [first, second]) p.on('framenavigated', (f) => f === p.mainFrame() && navigations.push(f.url()));

    await fileComplaint(product.url, await residentToken(product.url));

    await expect.poll(() => untreated(first), { timeout: 15_000 }).toBe(before + 1);
    await expect.poll(() => untreated(second), { timeout: 15_000 }).toBe(before + 1);
    expect(navigations).toEqual([]);
  });
});
