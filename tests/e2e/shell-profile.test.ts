// Edit profile (issue 6, SPEC §2/§7): a new name and an avatar cropped to 300×300 PNG, uploaded
// through the gateway, saved on the person and shown in the top bar.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { startProduct, type Product } from '../support/product';
import { STAFF, newContext, signIn } from './shell-helpers';

async function token(url: string): Promise<string> {
  const res = await fetch(`${url}/api/oauth/token`, {
    method: 'POST',
    headers: {
      Authorization: 'Basic ' + Buffer.from('console:console-secret').toString('base64'),
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'password', ...STAFF }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

describe('console shell: edit profile', () => {
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

  it('when staff choose a picture and a new name, then a 300×300 PNG avatar and the name are saved and shown', async () => {
    context = await newContext(browser, product.url);
    const page = await context.newPage();
    await signIn(page, product.url, STAFF);
    const picture = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#c0392b' } })
      .jpeg()
      .toBuffer();

    await page.getByTestId('avatar-menu').click();
    await page.getByTestId('menu-profile').click();
    await page.getByTestId('profile-edit').click();
    const dialog = page.getByTestId('edit-profile-dialog');
    await dialog
      .getByTestId('avatar-file')
      .setInputFiles({ name: 'holiday.jpg', mimeType: 'image/jpeg', buffer: picture });
    await dialog.locator('.reactEasyCrop_Container').waitFor();
    await dialog.getByTestId('profile-name-input').locator('input').fill('Sam Lee-Wong');
    await dialog.getByTestId('profile-save').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => page.getByTestId('topbar').textContent()).toContain('Sam Lee-Wong');

    // What the api now holds for the person: the new name and an uploaded 300×300 PNG.
    const auth = { Authorization: `Bearer ${await token(product.url)}` };
    const me = (await (await fetch(`${product.url}/api/auth/current/user`, { headers: auth })).json()) as {
      data: { accountInfo: { personId: number } };
    };
    const info = (await (
      await fetch(`${product.url}/api/base/person/info/${me.data.accountInfo.personId}`, { headers: auth })
    ).json()) as {
      data: { name: string; images: { url: string }[] };
    };
    expect(info.data.name).toBe('Sam Lee-Wong');
    const avatar = await fetch(
      `${product.url}/api/upload/image?imageUrl=${encodeURIComponent(info.data.images[0].url)}`,
    );
    expect(avatar.status).toBe(200);
    const meta = await sharp(Buffer.from(await avatar.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 300, height: 300 });
  });
});
