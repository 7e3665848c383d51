// Staff check-in in the browser (issue 32): a punch from the staff app moves the person on the
// open duty board (the `checkin` topic, no reload); a make-up request approved with the keyboard
// alone; the four screens in en, zh-CN and zh-TW at 390 px without axe-core critical or serious
// findings (CHECKIN_SHOTS=<dir> keeps screenshots to look at).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  ADMIN,
  STAFF,
  apiCall,
  apiToken,
  axeViolations,
  blocking,
  signedInPage,
  useProductAndBrowser,
} from '../support/kit';

const SCREENS = ['personnel-monitoring', 'punch-record', 'missing-card-record', 'check-in-rule-settings'];
const at = (screen: string, query = '') => `/login?redirect=${encodeURIComponent(`/check-in/${screen}${query}`)}`;
const SHOTS = process.env.CHECKIN_SHOTS;
/** The demo's check-in place (api/src/seed/seed-checkin.ts). */
const PLACE = { lat: 22.2799, lng: 114.1588 };

async function blockingOn(page: Page, name: string): Promise<string[]> {
  const violations = await axeViolations(page);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  return blocking(violations).map((v) => `${name}: ${v.id} ${v.targets.join(' | ')}`);
}

describe('staff check-in in the browser', () => {
  const run = useProductAndBrowser();

  it('when a staff member punches from the staff app, then the open board moves them at once', async () => {
    const board = await signedInPage(run, ADMIN, { path: at('personnel-monitoring') });
    await board.getByTestId('checkin-board').waitFor();
    const staffToken = await apiToken(run.product.url, STAFF);
    const me = await apiCall<{ accountInfo: { personId: number } }>(run.product.url, '/auth/current/user', staffToken);
    const person = board.getByTestId(`board-person-${me.accountInfo.personId}`);
    await person.waitFor();
    // From too far away (≈ 555 m): refused, and the board shows them out of place.
    const res = await fetch(`${run.product.url}/api/app/checkin/punch`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${staffToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        kind: 'in',
        lat: PLACE.lat + 0.005,
        lng: PLACE.lng,
        accuracyMetres: 10,
        deviceId: 'e2e',
        idempotencyKey: `e2e-${Date.now()}`,
      }),
    });
    expect(res.status).toBe(400);
    await board.getByTestId('board-outOfPlace').getByTestId(`board-person-${me.accountInfo.personId}`).waitFor();
  });

  it('when a supervisor approves a make-up request with the keyboard alone, then it leaves the waiting list', async () => {
    const page = await signedInPage(run, ADMIN, { path: at('missing-card-record') });
    await page.getByTestId('missing-table').waitFor();
    const approve = page.locator('[data-testid^="approve-"]').first();
    await approve.waitFor();
    const id = await approve.getAttribute('data-testid');
    for (let i = 0; i < 200; i++) {
      if (await page.evaluate((s) => document.activeElement?.getAttribute('data-testid') === s, id)) break;
      await page.keyboard.press('Tab');
    }
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(id);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId(id!).count()).toBe(0);
  });

  it.each(['en', 'zh-CN', 'zh-TW'])(
    'when the four screens open in %s at 390 px, then they have no critical or serious axe finding',
    async (language) => {
      const found: string[] = [];
      for (const screen of SCREENS) {
        const page = await signedInPage(run, ADMIN, { language, width: 390, path: at(screen) });
        await page
          .locator(
            '[data-testid^="board-person-"], [data-testid^="punch-row-"], [data-testid^="missing-row-"], [data-testid^="rule-row-"]',
          )
          .first()
          .waitFor();
        found.push(...(await blockingOn(page, `${screen}-${language}-390`)));
        await page.close();
      }
      expect(found).toEqual([]);
    },
  );
});
