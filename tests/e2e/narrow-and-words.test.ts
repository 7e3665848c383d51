// The built screens at 390 px and in Chinese (issue 16): the status tabs do not widen the page,
// chat notifications cover neither the pagination nor the settings handle (at 390 and 1440 px),
// messages say their kind in the person's language and carry the right kind of house, and
// seeded and live codes share one format.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { ADMIN, apiCall, apiToken, repoRoot, signIn, useProductAndBrowser } from '../support/kit';

const zhTW = JSON.parse(readFileSync(join(repoRoot, 'locales', 'zh-TW.json'), 'utf8'));
const RESIDENT = { username: 'resident1', password: 'resident123' };

interface Message {
  messageType: number;
  name: string | null;
  unit: { name?: string } | null;
  carpark: { carparkCode?: string } | null;
  shop: { shopCode?: string } | null;
}

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not shown');
  return b;
}
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('narrow screens and words', () => {
  const run = useProductAndBrowser();
  const url = () => run.product.url;

  /** A resident writes to the administrator: a chat notification appears in the admin's tab. */
  async function chatToAdmin(text: string): Promise<void> {
    const [resident, admin] = await Promise.all([apiToken(url(), RESIDENT), apiToken(url(), ADMIN)]);
    const me = (t: string) =>
      apiCall<{ accountInfo: { personId: number } }>(url(), '/auth/current/user', t).then(
        (u) => u.accountInfo.personId,
      );
    const [from, to] = await Promise.all([me(resident), me(admin)]);
    const { groupId } = await apiCall<{ groupId: number }>(url(), `/im/chatrecord/check/chat/${from}/${to}`, resident);
    await apiCall(url(), '/im/chatrecord/save', resident, { groupId, content: text, type: 1 });
  }

  async function notificationClearOfControls(page: Page, text: string) {
    await page.getByTestId('list-pagination').waitFor();
    await chatToAdmin(text);
    const note = page.getByTestId('chat-notification').filter({ hasText: text });
    await note.waitFor({ timeout: 15_000 });
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const noteBox = await box(note);
    // Each part of the pagination (total, page size, pages); the row itself spans the list's width.
    const parts = page.getByTestId('list-pagination').locator(':scope > *');
    expect(await parts.count()).toBeGreaterThan(1);
    for (const part of await parts.all()) expect(overlaps(noteBox, await box(part))).toBe(false);
    expect(overlaps(noteBox, await box(page.getByTestId('settings-handle')))).toBe(false);
    // The notification is reached and closed with the keyboard too.
    await note.getByRole('button', { name: /close|關閉|关闭/i }).click();
    await note.waitFor({ state: 'detached' });
  }

  it('when the complaints list is shown at 390 px in zh-TW, then nothing widens the page and a chat notification covers no control', async () => {
    const page = await (await run.context('zh-TW', 390)).newPage();
    await signIn(page, url(), ADMIN, '/login?redirect=/complaints-suggestions/index');
    await page.getByTestId('work-table').waitFor();
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.window);
    const tabs = await box(page.locator('.list-status-tabs'));
    expect(tabs.x + tabs.width).toBeLessThanOrEqual(390);
    await notificationClearOfControls(page, 'Hello from the lobby (narrow)');
  });

  it('when a chat notification shows at 1440 px, then it covers neither the pagination nor the settings handle', async () => {
    const page = await (await run.context('en', 1440)).newPage();
    await signIn(page, url(), ADMIN, '/login?redirect=/complaints-suggestions/index');
    await page.getByTestId('work-table').waitFor();
    await notificationClearOfControls(page, 'Hello from the lobby (wide)');
  });

  it('when the message panel is read in zh-TW, then every kind is in Traditional Chinese and exits name the house they are about', async () => {
    const admin = await apiToken(url(), ADMIN);
    const all = await apiCall<{ list: Message[] }>(url(), '/base/message/list', admin, { page: 1, limit: 1000 });
    // Stored names are the records' own (a complaint's theme), never an English kind.
    for (const m of all.list)
      expect(m.name ?? '').not.toMatch(/^(New complaint|New work order|Reply on complaint|Reply on work order)$/);
    const exits = (type: number) => all.list.filter((m) => m.messageType === type);
    expect(exits(32).length).toBeGreaterThan(0);
    for (const m of exits(32)) expect(m.unit).toBeNull();
    for (const m of exits(32)) expect(m.carpark?.carparkCode).toMatch(/^P\d+/);
    expect(exits(33).length).toBeGreaterThan(0);
    for (const m of exits(33)) expect(m.unit).toBeNull();
    for (const m of exits(33)) expect(m.shop?.shopCode).toMatch(/^G\d+/);

    const page = await (await run.context('zh-TW')).newPage();
    await signIn(page, url(), ADMIN);
    await page.getByTestId('message-bell').click();
    const panel = page.getByTestId('notification-panel');
    await panel.getByTestId('notification-row').first().waitFor();
    const titles = await panel.locator('.notification-title').allTextContents();
    const kinds = new Set(Object.values(zhTW.messages.types as Record<string, string>));
    for (const title of titles) expect(kinds).toContain(title);
    const parking = panel.getByTestId('notification-row').filter({ hasText: zhTW.messages.types.t32 });
    expect(await parking.first().textContent()).toMatch(/P\d+/);
  });

  it('when complaints and work orders are listed and a new one is filed, then every code has the one format', async () => {
    const admin = await apiToken(url(), ADMIN);
    const codes = async (path: string, field: string) =>
      (await apiCall<{ list: Record<string, string>[] }>(url(), path, admin, { page: 1, limit: 100 })).list.map(
        (r) => r[field],
      );
    for (const code of await codes('/complain/query/list', 'complainCode')) expect(code).toMatch(/^C\d{8}\d{4}$/);
    for (const code of await codes('/eventOrder/query/list', 'eventCode')) expect(code).toMatch(/^E\d{8}\d{4}$/);
    const resident = await apiToken(url(), RESIDENT);
    const [house] = await apiCall<{ houseType: number; houseId: number }[]>(url(), '/app/house/list', resident);
    const saved = await apiCall<{ complainCode: string }>(url(), '/app/complain/save', resident, {
      name: 'Code format',
      note: '-',
      houseType: house.houseType,
      houseId: house.houseId,
    });
    expect(saved.complainCode).toMatch(/^C\d{8}\d{4}$/);
    expect(await codes('/complain/query/list', 'complainCode')).toContain(saved.complainCode);
  });
});
