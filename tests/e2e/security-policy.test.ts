// The console under the gateway's Content-Security-Policy (issue 14, item 11): every screen works
// without a single policy violation, and an image URL from another origin (a tracking pixel set as
// an avatar) is blocked before the browser requests it.
import sharp from 'sharp';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN, apiCall, apiToken, fillLogin, menuEntries, signIn, STAFF, useProductAndBrowser } from '../support/kit';

interface Violation {
  directive: string;
  blocked: string;
  page: string;
}

/** Every `securitypolicyviolation` any page of the context reports, and why its failed requests failed. */
async function watch(context: BrowserContext): Promise<{ violations: Violation[]; failures: string[] }> {
  const violations: Violation[] = [];
  const failures: string[] = [];
  await context.exposeBinding('reportPolicyViolation', (_source, v: Violation) => void violations.push(v));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { reportPolicyViolation(v: object): void }).reportPolicyViolation;
      report({ directive: e.effectiveDirective, blocked: e.blockedURI, page: location.pathname });
    });
  });
  context.on('requestfailed', (r) => void failures.push(`${r.url()} ${r.failure()?.errorText}`));
  return { violations, failures };
}

/**
 * zod 4 probes once per page whether it may compile validators (`new Function('')`) and falls back
 * to interpreting them when the policy says no: reported as an 'eval' violation, harmless.
 * `z.config({ jitless: true })` in the client would skip the probe.
 */
const isZodJitProbe = (v: Violation) => v.directive === 'script-src' && v.blocked === 'eval';

async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
}

describe('the console under its Content-Security-Policy', () => {
  const run = useProductAndBrowser();

  it('when the login page, its captcha, every screen of the menu and the avatar cropper are used, then no policy is violated', async () => {
    const url = run.product.url;
    const context = await run.context();
    const { violations } = await watch(context);

    // Three wrong sign-ins bring up the slider captcha (pictures the console draws from data: URLs).
    const login = await context.newPage();
    const answer = await login.goto(`${url}/login`);
    const csp = answer!.headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("frame-ancestors 'none'");
    for (let i = 0; i < 3; i++) {
      await fillLogin(login, { username: 'nobody-here', password: `wrong-${i}` });
      await login.getByTestId('login-error').waitFor();
    }
    await login.getByTestId('slider-captcha').locator('img').first().waitFor();
    await login.close();

    const page = await context.newPage();
    await signIn(page, url, ADMIN);
    for (const path of await menuEntries(page)) {
      await page.goto(url + path);
      await page.getByTestId('sidebar').waitFor();
      await settled(page);
    }

    await page.getByTestId('avatar-menu').click();
    await page.getByTestId('menu-profile').click();
    await page.getByTestId('profile-edit').click();
    const picture = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#2980b9' } })
      .png()
      .toBuffer();
    const dialog = page.getByTestId('edit-profile-dialog');
    await dialog.getByTestId('avatar-file').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: picture });
    await dialog.locator('.reactEasyCrop_Container img').waitFor();
    await settled(page);

    expect(violations.filter((v) => !isZodJitProbe(v))).toEqual([]);
  });

  it('when an avatar points to another origin, then the browser blocks it without requesting it', async () => {
    const url = run.product.url;
    const token = await apiToken(url, STAFF);
    const me = await apiCall<{ accountInfo: { personId: number } }>(url, '/auth/current/user', token);
    const personId = me.accountInfo.personId;
    const person = await apiCall<{ name: string }>(url, `/base/person/info/${personId}`, token);
    const pixel = 'http://tracker.example.invalid/pixel.gif?who=staff';
    await apiCall(url, `/base/person/saveorupdate/${personId}`, token, {
      personId,
      name: person.name,
      images: [{ url: pixel }],
    });

    const context = await run.context();
    const { violations, failures } = await watch(context);
    const page = await context.newPage();
    await signIn(page, url, STAFF);
    await page.getByTestId('avatar-menu').locator('img').waitFor({ state: 'attached' });
    const blocked = () => violations.filter((v) => !isZodJitProbe(v));
    await expect.poll(() => blocked().length).toBeGreaterThan(0);

    for (const v of blocked()) expect(v).toMatchObject({ directive: 'img-src', blocked: pixel });
    // Refused by the browser itself: no DNS lookup, no connection, nothing reached the tracker.
    const tracked = failures.filter((f) => f.startsWith(pixel));
    expect(tracked.length).toBeGreaterThan(0);
    for (const f of tracked) expect(f).toBe(`${pixel} csp`);
  });
});
