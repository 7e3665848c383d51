// Owners and residents end to end (issue 19): a resident's request to join appears live in two
// open review lists, is certified in one tab and the unit's status changes in the other; the
// owner change asks SPEC §4's question; a refusal's reason reaches the resident; the house's
// people, the history staff detail and owner info in three languages at 390 px; the status tabs'
// counts load and move live. Two free units' invite
// codes are read from the demo database (seedDataDir) before the product starts on it.
import { rmSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  ADMIN,
  STAFF,
  apiCall,
  apiToken,
  launchBrowser,
  newContext,
  newDataDir,
  seedDataDir,
  signIn,
  startProduct,
  type Product,
} from '../support/kit';

const R3 = { username: 'resident3', password: 'resident123' };
const R4 = { username: 'resident4', password: 'resident123' };
const R5 = { username: 'resident5', password: 'resident123' };
const REVIEW = '/login?redirect=%2Fbuilding-management%2Fowner-review';
const SHOTS = process.env.OWNERS_SHOTS;

describe('owner review, live', () => {
  const dataDir = newDataDir();
  let product: Product;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let codes: string[] = [];

  const page = async (user: typeof ADMIN, language = 'en', width = 1366): Promise<Page> => {
    const c = await newContext(browser, product.url, language, width);
    contexts.push(c);
    const p = await c.newPage();
    await signIn(p, product.url, user, REVIEW);
    await p.getByTestId('review-table').waitFor({ timeout: 30_000 });
    return p;
  };
  const join = async (who: typeof R3, inviteCode: string, identity: number) =>
    (
      await apiCall<{ personHouseId: number }>(product.url, '/app/personhouse/join', await apiToken(product.url, who), {
        inviteCode,
        identity,
      })
    ).personHouseId;
  /** A status tab's count as shown ("–" until loaded gives NaN). */
  const tabCount = async (p: Page, tab: 0 | 2 | 3) => Number(await p.getByTestId(`status-count-${tab}`).textContent());
  const shot = async (p: Page, name: string) => {
    if (SHOTS) await p.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  };

  beforeAll(async () => {
    await seedDataDir(dataDir);
    const db = new PGlite({ dataDir, extensions: { pg_trgm } });
    const { rows } = await db.query<{ invite_code: string }>(
      `select u.invite_code from unit u join housing_estate e on e.id = u.housing_estate_id
        where e.name = 'Harbour View Garden' and not exists (select 1 from person_house ph where ph.unit_id = u.id)
        order by u.id limit 2`,
    );
    codes = rows.map((r) => r.invite_code);
    await db.close();
    expect(codes).toHaveLength(2);
    product = await startProduct({}, { dataDir });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await product?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("when a resident asks to own a unit, then the request appears live in two open review lists, is certified in one and the unit's status changes in the other", async () => {
    const [a, b] = await Promise.all([page(ADMIN), page(STAFF)]);
    // The tabs show their counts (pending, certified, refused) once loaded.
    await expect.poll(() => tabCount(b, 0)).toBeGreaterThan(0);
    const pending = await tabCount(b, 0);
    const certified = await tabCount(b, 2);
    expect(certified).toBeGreaterThan(pending);
    expect(await tabCount(b, 3)).toBeGreaterThanOrEqual(0);
    const id = await join(R3, codes[0], 1);
    const rowA = a.getByTestId(`review-row-${id}`);
    const rowB = b.getByTestId(`review-row-${id}`);
    await Promise.all([rowA.waitFor({ timeout: 15_000 }), rowB.waitFor({ timeout: 15_000 })]);
    expect(await rowA.textContent()).toContain('Owner');
    // The pending count rose live in both tabs.
    await expect.poll(() => tabCount(b, 0), { timeout: 15_000 }).toBe(pending + 1);
    await expect.poll(() => tabCount(a, 0), { timeout: 15_000 }).toBe(pending + 1);

    // Tab B opens the unit's people: the owner waits for review.
    await rowB.getByTestId('house-link').click();
    const house = b.getByTestId('house-dialog');
    await house.getByTestId('people-table').waitFor();
    await expect.poll(() => house.getByTestId('house-status').textContent()).toBe('Not certified');
    await shot(b, 'house-people-en');

    // Tab A certifies, with a confirmation.
    await rowA.getByTestId('certify').click();
    await a.getByTestId('confirm-dialog').waitFor();
    await a.getByTestId('confirm-ok').click();
    await rowA.waitFor({ state: 'detached', timeout: 15_000 });

    // Tab B sees the unit bound, without reloading.
    await expect.poll(() => house.getByTestId('house-status').textContent(), { timeout: 15_000 }).toBe('Bound');
    // The counts moved in both tabs: one request less pending, one owner more certified.
    for (const p of [a, b]) {
      await expect.poll(() => tabCount(p, 0), { timeout: 15_000 }).toBe(pending);
      await expect.poll(() => tabCount(p, 2), { timeout: 15_000 }).toBe(certified + 1);
    }
    const requests = await apiCall<{ personHouseId: number; status: number }[]>(
      product.url,
      '/app/personhouse/requests',
      await apiToken(product.url, R3),
    );
    expect(requests.find((r) => r.personHouseId === id)?.status).toBe(2);
  });

  it('when a second owner asks for the same unit, then certifying asks whether to move the old owner to the history, and a refusal reason reaches the resident', async () => {
    const a = await page(ADMIN);
    const id = await join(R4, codes[0], 1);
    const row = a.getByTestId(`review-row-${id}`);
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain('Current owner');
    await shot(a, 'review-en');
    await row.getByTestId('certify').click();
    await a.getByTestId('confirm-ok').click();
    const question = a.getByTestId('confirm-dialog');
    await question.getByText('already has an owner').waitFor({ timeout: 15_000 });
    await a.getByTestId('confirm-ok').click();
    await row.waitFor({ state: 'detached', timeout: 15_000 });
    // The old owner moved to the history: the unit is no longer resident3's.
    const r3Houses = await apiCall<{ houseType: number; houseId: number }[]>(
      product.url,
      '/app/house/list',
      await apiToken(product.url, R3),
    );
    const [{ houseId }] = (
      await apiCall<{ personHouseId: number; houseId: number }[]>(
        product.url,
        '/app/personhouse/requests',
        await apiToken(product.url, R4),
      )
    ).filter((r) => r.personHouseId === id);
    expect(r3Houses.filter((h) => h.houseType === 1 && h.houseId === houseId)).toEqual([]);
    const r4Requests = await apiCall<{ personHouseId: number; status: number }[]>(
      product.url,
      '/app/personhouse/requests',
      await apiToken(product.url, R4),
    );
    expect(r4Requests.find((r) => r.personHouseId === id)?.status).toBe(2);

    // A tenant's request is refused with a reason through the refuse-join dialog (keyboard only).
    const tenant = await join(R5, codes[1], 2);
    const tenantRow = a.getByTestId(`review-row-${tenant}`);
    await tenantRow.waitFor({ timeout: 15_000 });
    await tenantRow.getByTestId('refuse').focus();
    await a.keyboard.press('Enter');
    const dialog = a.getByTestId('refuse-dialog');
    await dialog.getByTestId('refuse-reason').waitFor();
    // The dialog puts the cursor in the reason (after its opening transition): type once it is there.
    await a.waitForFunction(() => document.activeElement?.id === 'refuse-reason');
    await a.keyboard.type('No lease on file');
    expect(await a.locator('#refuse-reason').inputValue()).toBe('No lease on file');
    await dialog.getByTestId('refuse-submit').click();
    await tenantRow.waitFor({ state: 'detached', timeout: 15_000 });
    const mine = await apiCall<{ personHouseId: number; status: number; refuseReason: string | null }[]>(
      product.url,
      '/app/personhouse/requests',
      await apiToken(product.url, R5),
    );
    expect(mine.find((r) => r.personHouseId === tenant)).toMatchObject({ status: 3, refuseReason: 'No lease on file' });
  });

  it("when staff open the unit's people in each language at 390 px, then the history staff detail shows every SPEC field and owner info opens more industries", async () => {
    const labels: Record<string, string[]> = {
      en: [
        'History record id',
        'Person id',
        'Name',
        'Gender',
        'Account type',
        'Identity',
        'Join time',
        'Departure time',
        'Operator',
        'Operation type',
      ],
      'zh-CN': [
        '历史记录编号',
        '人员编号',
        '姓名',
        '性别',
        '账号类型',
        '身份',
        '加入时间',
        '离开时间',
        '操作人',
        '操作类型',
      ],
      'zh-TW': [
        '歷史記錄編號',
        '人員編號',
        '姓名',
        '性別',
        '帳號類型',
        '身份',
        '加入時間',
        '離開時間',
        '操作人',
        '操作類型',
      ],
    };
    for (const language of ['en', 'zh-CN', 'zh-TW']) {
      const p = await page(ADMIN, language, 390);
      await p.goto(product.url + '/building-management/owner-review?status=2&house=1');
      const row = p.locator('[data-testid^=review-row-]').first();
      await row.waitFor({ timeout: 15_000 });
      await shot(p, `review-${language}-390`);
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390 + 1);
      await expect.poll(() => tabCount(p, 2)).toBeGreaterThan(0);

      await row.getByTestId('more-detail').click();
      const info = p.getByTestId('owner-info');
      await info.getByTestId('more-industries-link').waitFor();
      expect(await info.textContent()).toMatch(/Account type|账号类型|帳號類型/);
      await info.getByTestId('more-industries-link').click();
      await p.getByTestId('more-industries').locator('.list, p').first().waitFor();
      await shot(p, `more-industries-${language}-390`);
      await p.keyboard.press('Escape');
      await p.keyboard.press('Escape');

      // The unit of the first tests (its newest certified owner): resident3 is its history staff.
      await p.goto(product.url + '/building-management/owner-review?status=2&identity=1');
      const certified = p.locator('[data-testid^=review-row-]').first();
      await certified.waitFor();
      await certified.getByTestId('house-link').click();
      const house = p.getByTestId('house-dialog');
      await house.getByTestId('people-tab-history').click();
      const historyRow = house.locator('[data-testid^=history-row-]').first();
      await historyRow.waitFor();
      await shot(p, `house-people-${language}-390`);
      await historyRow.getByTestId('history-detail-link').click();
      const detail = p.getByTestId('history-detail');
      await detail.locator('dl').waitFor();
      const text = (await detail.textContent()) ?? '';
      for (const label of labels[language]) expect(text).toContain(label);
      expect(text).toMatch(/Management office|管理处|管理處/);
      await shot(p, `history-detail-${language}-390`);
    }
  });
});
