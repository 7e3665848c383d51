// Edit profile (issue 6, SPEC §2/§7): a new name and an avatar cropped to 300×300 PNG, uploaded
// through the gateway, saved on the person and shown in the top bar.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { apiCall, apiToken, signIn, STAFF, useProductAndBrowser } from '../support/kit';

describe('console shell: edit profile', () => {
  const run = useProductAndBrowser();

  it('when staff choose a picture and a new name, then a 300×300 PNG avatar and the name are saved and shown', async () => {
    const url = run.product.url;
    const page = await (await run.context()).newPage();
    await signIn(page, url, STAFF);
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
    const token = await apiToken(url, STAFF);
    const me = await apiCall<{ accountInfo: { personId: number } }>(url, '/auth/current/user', token);
    const info = await apiCall<{ name: string; images: { url: string }[] }>(
      url,
      `/base/person/info/${me.accountInfo.personId}`,
      token,
    );
    expect(info.name).toBe('Sam Lee-Wong');
    const avatar = await fetch(`${url}/api/upload/image?imageUrl=${encodeURIComponent(info.images[0].url)}`);
    expect(avatar.status).toBe(200);
    const meta = await sharp(Buffer.from(await avatar.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 300, height: 300 });
  });
});
