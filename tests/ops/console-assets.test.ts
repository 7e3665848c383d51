// The built console as a browser gets it (issue 17): the build keeps only the Semantic UI rules
// and icons the sources use and splits the stylesheet in two (client/build/semantic-ui-css.ts),
// so here Chromium checks that nothing went missing on the way: every icon on the sign-in page,
// every screen of the menu and the profile dialog is drawn, and the components of the signed-in
// frame are styled. The favicon is an icon and every file comes compressed.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN, fillLogin, menuEntries, signIn, useProductAndBrowser } from '../support/kit';

/** Icons on the page whose glyph rule is missing (no ::before content), by their classes. */
function undrawnIcons(page: Page): Promise<string[]> {
  return page.locator('i.icon').evaluateAll((icons) =>
    icons
      .filter((i) => {
        const content = getComputedStyle(i, '::before').content;
        return !content || content === 'none' || content === 'normal' || content === '""';
      })
      .map((i) => i.className),
  );
}

describe('the built console in Chromium', () => {
  const run = useProductAndBrowser();

  it('when the sign-in page, every screen and the profile dialog are shown, then every icon is drawn and the components are styled', async () => {
    const url = run.product.url;
    const context = await run.context();
    const encodings = new Map<string, string | undefined>();
    context.on('response', (r) => {
      if (!new URL(r.url()).pathname.startsWith('/assets/')) return;
      // Files under 1 KB are not worth compressing and go as they are.
      const small = Number(r.headers()['content-length']) < 1024;
      encodings.set(r.url(), small ? 'small' : r.headers()['content-encoding']);
    });
    const missing: string[] = [];
    const page = await context.newPage();

    await page.goto(`${url}/login`);
    await page.locator('input[name=account]').waitFor();
    // A wrong password shows the error message; three bring up the slider captcha with its icons.
    for (let i = 0; i < 3; i++) {
      await fillLogin(page, { username: 'nobody-here', password: `wrong-${i}` });
      await page.getByTestId('login-error').waitFor();
    }
    await page.getByTestId('slider-captcha').waitFor();
    missing.push(...(await undrawnIcons(page)).map((c) => `/login: ${c}`));
    expect(
      await page
        .locator('.ui.button')
        .first()
        .evaluate((b) => getComputedStyle(b).fontWeight),
    ).toBe('700');

    await signIn(page, url, ADMIN);
    // Semantic UI's menu (signed-in stylesheet) gives every menu a minimum height.
    expect(
      await page
        .locator('.ui.menu')
        .first()
        .evaluate((m) => getComputedStyle(m).minHeight),
    ).toMatch(/^[1-9]/);
    for (const path of await menuEntries(page)) {
      await page.goto(url + path);
      await page.getByTestId('sidebar').waitFor();
      await page.waitForLoadState('networkidle');
      missing.push(...(await undrawnIcons(page)).map((c) => `${path}: ${c}`));
      const table = page.locator('table.ui.table');
      if (await table.count())
        expect(await table.first().evaluate((t) => getComputedStyle(t).borderCollapse), path).toBe('separate');
    }
    await page.getByTestId('avatar-menu').click();
    missing.push(...(await undrawnIcons(page)).map((c) => `avatar menu: ${c}`));
    await page.getByTestId('menu-profile').click();
    await page.locator('.ui.modal').waitFor();
    expect(
      await page
        .locator('.ui.dimmer')
        .first()
        .evaluate((d) => getComputedStyle(d).position),
    ).toBe('fixed');
    missing.push(...(await undrawnIcons(page)).map((c) => `profile: ${c}`));

    expect(missing).toEqual([]);
    // Scripts and stylesheets came pre-compressed (fonts and pictures are compressed already).
    const text = [...encodings].filter(([u]) => /\.(js|css)$/.test(u));
    expect(text.length).toBeGreaterThan(3);
    for (const [u, encoding] of text) expect(encoding, u).toMatch(/^(br|small)$/);
  });

  it('when the browser asks for the favicon and robots.txt, then it gets an icon and a robots file', async () => {
    const favicon = await fetch(`${run.product.url}/favicon.ico`, { headers: { accept: 'image/*,*/*' } });
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('content-type')).toMatch(/^image\//);
    const bytes = Buffer.from(await favicon.arrayBuffer());
    expect(bytes.subarray(0, 4).equals(Buffer.from([0, 0, 1, 0]))).toBe(true); // the ICO signature
    const robots = await fetch(`${run.product.url}/robots.txt`);
    expect(await robots.text()).toMatch(/^User-agent: \*/);
  });
});
