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

const SCREENS = [
  'personnel-monitoring',
  'punch-record',
  'missing-card-record',
  'check-in-rule-settings',
  // The missing-card record's other views (tabs; SPEC §2 has no route for them).
  'missing-card-record?view=makeups',
  'missing-card-record?view=month',
];
const at = (screen: string, query = '') => `/login?redirect=${encodeURIComponent(`/check-in/${screen}${query}`)}`;
/** The estate's (Asia/Hong_Kong) today, yyyy-MM-dd. */
const estateToday = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
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
    // The event carries the person's new row: the board moves them without loading itself again.
    let reloads = 0;
    board.on('request', (r) => {
      if (r.url().includes('/api/base/checkin/board')) reloads++;
    });
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
    expect(reloads).toBe(0);
  });

  it('when the wall screen account opens the duty board, then it is shown (not sent back to /wall)', async () => {
    const wall = await signedInPage(
      run,
      { username: 'wall', password: 'wall123' },
      { path: at('personnel-monitoring') },
    );
    await wall.getByTestId('checkin-board').waitFor();
    await wall.locator('[data-testid^="board-person-"]').first().waitFor();
    expect(new URL(wall.url()).pathname).toBe('/check-in/personnel-monitoring');
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
    await expect.poll(() => page.getByTestId(id!).count(), { timeout: 15_000 }).toBe(0);
  });

  it.each(['en', 'zh-CN', 'zh-TW'])(
    'when the four screens open in %s at 390 px, then they have no critical or serious axe finding',
    async (language) => {
      const found: string[] = [];
      for (const screen of SCREENS) {
        const page = await signedInPage(run, ADMIN, { language, width: 390, path: at(screen) });
        await page
          .locator(
            '[data-testid^="board-person-"], [data-testid^="punch-row-"], [data-testid^="missing-row-"], [data-testid^="rule-row-"], [data-testid^="makeup-row-"], [data-testid^="month-row-"]',
          )
          .first()
          .waitFor();
        found.push(...(await blockingOn(page, `${screen.replace('?view=', '-')}-${language}-390`)));
        if (screen === 'check-in-rule-settings') {
          // The form as it grows: a person's own rule with a second shift row.
          await page.getByTestId('rule-owner-person').check();
          await page.getByTestId('rule-add-shift').click();
          found.push(...(await blockingOn(page, `rule-form-person-${language}-390`)));
        }
        await page.close();
      }
      expect(found).toEqual([]);
    },
  );

  it("when an administrator gives a person their own rule with three shifts and punch windows, then it is listed as that person's; overlapping shifts are refused in the person's language", async () => {
    const page = await signedInPage(run, ADMIN, { language: 'zh-CN', path: at('check-in-rule-settings') });
    await page.locator('[data-testid^="rule-row-"]').first().waitFor();
    await page.getByTestId('rule-owner-person').check();
    const person = page.getByTestId('rule-person');
    await person.locator('option').nth(1).waitFor({ state: 'attached' });
    const personName = (await person.locator('option').nth(1).textContent())!.replace(/ \(.*\)$/, '');
    await person.selectOption({ index: 1 });
    await page.locator('#rule-from').fill(estateToday());
    await page.locator('#rule-start-0').fill('06:00');
    await page.locator('#rule-end-0').fill('10:00');
    await page.getByTestId('rule-add-shift').click();
    await page.locator('#rule-start-1').fill('09:00');
    await page.locator('#rule-end-1').fill('13:00');
    await page.locator('#rule-lat').fill('22.2799');
    await page.locator('#rule-lng').fill('114.1588');
    await page.getByTestId('rule-save').click();
    // 06:00–10:00 and 09:00–13:00 share an hour.
    await page.getByTestId('toast-error').getByText('同一天的班次不能重叠').waitFor();

    await page.locator('#rule-start-1').fill('14:00');
    await page.locator('#rule-end-1').fill('18:00');
    await page.getByTestId('rule-add-shift').click();
    await page.locator('#rule-start-2').fill('22:00');
    await page.locator('#rule-end-2').fill('02:00');
    // A fourth row added and taken away again.
    await page.getByTestId('rule-add-shift').click();
    expect(await page.getByTestId('rule-add-shift').count()).toBe(0);
    await page.getByTestId('rule-remove-shift-3').click();
    await page.locator('#rule-early-in').fill('20');
    await page.locator('#rule-late-out').fill('40');
    await page.getByTestId('rule-save').click();
    const row = page
      .locator('[data-testid^="rule-row-"]')
      .filter({ hasText: `${personName}（个人规则）` })
      .filter({ hasText: '06:00–10:00, 14:00–18:00, 22:00–02:00' });
    await row.waitFor();
    expect(await row.textContent()).toContain('上班最早提前 20 分钟，下班最晚延后 40 分钟');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/rule-saved-zh-CN.png`, fullPage: true });
  });

  it('when a supervisor refuses a make-up request on its tab with the keyboard alone, then it moves to the refused tab', async () => {
    const page = await signedInPage(run, ADMIN, { path: at('missing-card-record') });
    await page.getByTestId('checkin-view-makeups').click();
    await page.getByTestId('status-tab-1').click();
    const refuse = page.locator('[data-testid^="makeup-refuse-"]').first();
    await refuse.waitFor();
    const id = (await refuse.getAttribute('data-testid'))!;
    const makeupId = id.replace('makeup-refuse-', '');
    for (let i = 0; i < 200; i++) {
      if (await page.evaluate((s) => document.activeElement?.getAttribute('data-testid') === s, id)) break;
      await page.keyboard.press('Tab');
    }
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(id);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId(id).count(), { timeout: 15_000 }).toBe(0);
    await page.getByTestId('status-tab-3').click();
    await page.getByTestId(`makeup-row-${makeupId}`).waitFor();
    expect(new URL(page.url()).search).toContain('view=makeups');
  });

  it('when the make-up requests are filtered by a name and the days of their shifts, then only those show; a reversed range is refused before asking', async () => {
    const token = await apiToken(run.product.url, ADMIN);
    const all = await apiCall<{ list: { makeupId: number; personName: string; day: string }[] }>(
      run.product.url,
      '/base/checkin/makeup/page',
      token,
      { page: 1, limit: 100 },
    );
    const one = all.list[0];
    const part = one.personName.slice(0, 3);
    const expected = all.list.filter((r) => r.day === one.day && r.personName.includes(part)).map((r) => r.makeupId);
    const page = await signedInPage(run, ADMIN, { path: at('missing-card-record', '?view=makeups') });
    await page.getByTestId('makeup-table').waitFor();
    await page.locator('#makeup-keyword').fill(part);
    // A start without an end is refused on the spot (SPEC §5), and nothing is asked.
    await page.getByTestId('date-start').fill(one.day);
    await page.getByTestId('date-end').fill('');
    await expect.poll(() => page.getByTestId('date-end').getAttribute('aria-invalid')).toBe('true');
    await page.getByTestId('date-end').fill(one.day);
    await page.getByTestId('search').click();
    await expect
      .poll(() => Object.fromEntries(new URL(page.url()).searchParams))
      .toMatchObject({
        view: 'makeups',
        q: part,
        from: one.day,
        to: one.day,
      });
    const shown = () =>
      page
        .locator('[data-testid^="makeup-row-"]')
        .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-testid')!.replace('makeup-row-', ''))));
    await expect.poll(shown, { timeout: 10_000 }).toEqual(expected);
  });

  it("when the month's totals open, then each person's late and missing counts show and export to Excel", async () => {
    const page = await signedInPage(run, ADMIN, { path: at('missing-card-record', '?view=month') });
    await page.getByTestId('month-table').waitFor();
    const first = page.locator('[data-testid^="month-row-"]').first();
    await first.waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-testid^="export-check-in-totals-"]').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^check-in-totals-\d{4}-\d{2}\.xlsx$/);
  });

  it('when the rule form is used with the keyboard alone, then a person is chosen and shift rows are added and removed', async () => {
    const page = await signedInPage(run, ADMIN, { path: at('check-in-rule-settings') });
    await page.locator('[data-testid^="rule-row-"]').first().waitFor();
    const focusOn = async (testId: string) => {
      for (let i = 0; i < 300; i++) {
        if (await page.evaluate((s) => document.activeElement?.getAttribute('data-testid') === s, testId)) return;
        await page.keyboard.press('Tab');
      }
      throw new Error(`${testId} never reached with Tab`);
    };
    await focusOn('rule-owner-department');
    // Arrow keys move between the radios of a group, as everywhere.
    await page.keyboard.press('ArrowDown');
    expect(await page.getByTestId('rule-owner-person').isChecked()).toBe(true);
    await page.getByTestId('rule-person').waitFor();
    await focusOn('rule-add-shift');
    await page.keyboard.press('Enter');
    await page.getByTestId('rule-shift-1').waitFor();
    await focusOn('rule-remove-shift-1');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('rule-shift-1').count()).toBe(0);
  });
});
