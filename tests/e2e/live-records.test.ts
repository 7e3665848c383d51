// Records and sessions as they change under the person's eyes (issue 16): a sign-out in another
// tab or elsewhere reaches every tab at once, "stay" keeps a readable page; an open detail dialog
// follows the record when someone else deals with or completes it; one action, one toast, and a
// toast stays while the pointer rests on it; View opens the record a message is about and leaves
// messages of unbuilt screens unread; a conversation longer than 100 replies shows all of them;
// staff without alarm permission see no SOS bell.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, apiCall, apiToken, menuEntries, repoRoot, signIn, STAFF, useProductAndBrowser } from '../support/kit';

const en = JSON.parse(readFileSync(join(repoRoot, 'locales', 'en.json'), 'utf8'));
const RESIDENT = { username: 'resident3', password: 'resident123' };

interface Message {
  messageId: number;
  messageType: number;
  dataId: number | null;
  name: string | null;
}

/** The texts of every toast that appears on the page from now on. */
async function recordToasts(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { toastTexts: string[] }).toastTexts = seen;
    new MutationObserver((records) => {
      for (const r of records)
        for (const n of Array.from(r.addedNodes))
          if (n instanceof HTMLElement && n.matches('.toaster .message')) seen.push(n.textContent ?? '');
    }).observe(document.body, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => [...(window as unknown as { toastTexts: string[] }).toastTexts]);
}

const tokenOf = async (page: Page) =>
  (await page.context().cookies()).find((c) => c.name === 'Admin-Token')?.value ?? '';

describe('records and sessions, live', () => {
  const run = useProductAndBrowser();
  const url = () => run.product.url;

  async function fileRequest(kind: 'complain' | 'eventOrder', name: string): Promise<number> {
    const resident = await apiToken(url(), RESIDENT);
    const [house] = await apiCall<{ houseType: number; houseId: number }[]>(url(), '/app/house/list', resident);
    const saved = await apiCall<{ complainId?: number; eventOrderId?: number }>(url(), `/app/${kind}/save`, resident, {
      name,
      note: 'Filed for the live test',
      houseType: house.houseType,
      houseId: house.houseId,
      ...(kind === 'eventOrder' ? { type: 1 } : {}),
    });
    return (saved.complainId ?? saved.eventOrderId)!;
  }

  it('when the person logs out in another tab, then this tab goes to the login page at once', async () => {
    const context = await run.context();
    const working = await context.newPage();
    await signIn(working, url(), ADMIN, '/login?redirect=/complaints-suggestions/index');
    await working.getByTestId('work-table').waitFor();
    await expect.poll(() => working.getByTestId('connection-status').getAttribute('data-status')).toBe('live');
    const other = await context.newPage();
    await other.goto(url() + '/dashboard');
    await other.getByTestId('avatar-menu').click();
    await other.getByTestId('menu-logout').click();
    await other.getByTestId('confirm-ok').click();
    await other.waitForURL(/\/login$/);
    await working.waitForURL(/\/login/, { timeout: 15_000 });
    expect(await working.getByTestId('confirm-dialog').count()).toBe(0);
  });

  it('when the token is signed out elsewhere, then the prompt comes by itself and "stay" keeps the page readable with a way to sign in again', async () => {
    const page = await (await run.context()).newPage();
    await signIn(page, url(), ADMIN, '/login?redirect=/complaints-suggestions/index');
    await page.getByTestId('work-table').waitFor();
    await expect.poll(() => page.getByTestId('connection-status').getAttribute('data-status')).toBe('live');
    // The table shows before its first page has arrived: count the rows once they are there.
    await expect.poll(() => page.getByTestId('work-table').locator('tbody tr').count()).toBeGreaterThan(0);
    const rows = await page.getByTestId('work-table').locator('tbody tr').count();
    const menu = await menuEntries(page);
    const res = await fetch(`${url()}/api/auth/signOut`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await tokenOf(page)}` },
    });
    expect(res.status).toBe(200);
    // No click, no call from this tab: the session event brings the question.
    const prompt = page.getByTestId('confirm-dialog');
    await prompt.waitFor({ timeout: 15_000 });
    expect(await prompt.textContent()).toContain(en.errors.loggedOut);
    await page.getByTestId('confirm-cancel').click();

    await page.getByTestId('signed-out-banner').waitFor();
    expect(await menuEntries(page)).toEqual(menu);
    expect(await page.getByTestId('work-table').locator('tbody tr').count()).toBe(rows);
    expect(await page.getByTestId('connection-status').getAttribute('data-status')).toBe('signedOut');
    expect((await page.context().cookies()).some((c) => c.name === 'Admin-Token')).toBe(false);
    await page.getByTestId('sign-in-again').click();
    await page.waitForURL(/\/login\?redirect=%2Fcomplaints-suggestions%2Findex/);
  });

  it('when someone else deals with and completes the open work order, then the dialog shows it live, says who, and closes the form that no longer applies', async () => {
    const id = await fileRequest('eventOrder', 'Lift button stuck');
    const page = await (await run.context()).newPage();
    await signIn(page, url(), ADMIN, `/login?redirect=${encodeURIComponent(`/event-work-order/index?open=${id}`)}`);
    const dialog = page.getByTestId('work-detail');
    await dialog.getByTestId('deal-button').click();
    await dialog.locator('textarea[name=dealNote]').fill('I will go');

    const staff = await apiToken(url(), STAFF);
    await apiCall(url(), '/eventOrder/updateDeal', staff, { eventOrderId: id, dealNote: 'Sam is on it' });
    const notice = dialog.getByTestId('work-changed-notice');
    await notice.waitFor({ timeout: 15_000 });
    expect(await notice.textContent()).toMatch(/^Sam Lee dealt with this at \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(await dialog.getByTestId('status-label').first().textContent()).toBe(en.workOrders.status.s2);
    expect(await dialog.getByTestId('deal-form').count()).toBe(0);
    await dialog.getByTestId('complete-button').waitFor();

    await apiCall(url(), '/eventOrder/updateComplete', staff, { eventOrderId: id, completeNote: 'Fixed' });
    await expect.poll(() => notice.textContent(), { timeout: 15_000 }).toContain('Sam Lee completed this at');
    await dialog.getByTestId('complete-info').waitFor();
    expect(await dialog.getByTestId('complete-button').count()).toBe(0);
  });

  it('when the person deals with a complaint, then exactly one toast says so (no echo, no second "Success")', async () => {
    const id = await fileRequest('complain', 'Dripping tap');
    const page = await (await run.context()).newPage();
    await signIn(
      page,
      url(),
      ADMIN,
      `/login?redirect=${encodeURIComponent(`/complaints-suggestions/index?open=${id}`)}`,
    );
    await expect.poll(() => page.getByTestId('connection-status').getAttribute('data-status')).toBe('live');
    const processing = Number(
      await page.getByTestId('status-count-2').locator('[data-count]').getAttribute('data-count'),
    );
    const toasts = await recordToasts(page);
    const dialog = page.getByTestId('work-detail');
    await dialog.getByTestId('deal-button').click();
    await dialog.locator('textarea[name=dealNote]').fill('Plumber booked');
    await dialog.getByTestId('deal-submit').click();
    await page.getByTestId('confirm-ok').click();
    await dialog.getByTestId('deal-info').waitFor();
    // The gateway's echo of the change has arrived once the live count moved.
    await expect
      .poll(() => page.getByTestId('status-count-2').locator('[data-count]').getAttribute('data-count'), {
        timeout: 15_000,
      })
      .toBe(String(processing + 1));
    expect(await toasts()).toEqual([en.workOrders.dealt]);
  });

  it('when the pointer rests on an error toast, then it stays until the pointer leaves', async () => {
    const id = await fileRequest('complain', 'Broken window');
    const page = await (await run.context()).newPage();
    await signIn(
      page,
      url(),
      ADMIN,
      `/login?redirect=${encodeURIComponent(`/complaints-suggestions/index?open=${id}`)}`,
    );
    const dialog = page.getByTestId('work-detail');
    await dialog.getByTestId('deal-button').click();
    await dialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    const toast = page.getByTestId('toast-error');
    await toast.waitFor();
    await toast.hover();
    // Well past its 5 s: still there while hovered.
    await page.waitForTimeout(6500);
    expect(await toast.isVisible()).toBe(true);
    await page.mouse.move(5, 5);
    await toast.waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('when View is pressed on a new-complaint message, then that complaint opens; on a join message, the unit screen opens and the message is read', async () => {
    const page = await (await run.context()).newPage();
    await signIn(page, url(), ADMIN);
    const admin = await apiToken(url(), ADMIN);
    const unread = (types: number[]) =>
      apiCall<{ list: Message[] }>(url(), '/base/message/list', admin, {
        page: 1,
        limit: 100,
        messageTypeList: types,
        unReadStatus: 0,
      });
    const complaints = (await unread([50])).list;
    expect(complaints.length).toBeGreaterThan(0);

    await page.getByTestId('message-bell').click();
    const panel = page.getByTestId('notification-panel');
    await panel
      .getByTestId('notification-row')
      .filter({ hasText: en.messages.types.t50 })
      .first()
      .getByTestId('notification-view')
      .click();
    await page.waitForURL(/\/complaints-suggestions\/index\?open=\d+/);
    const opened = Number(new URL(page.url()).searchParams.get('open'));
    const message = complaints.find((m) => m.dataId === opened);
    expect(message).toBeTruthy();
    const dialog = page.getByTestId('work-detail');
    await dialog.getByTestId('work-info').waitFor();
    expect(await dialog.locator('.dialog-title').textContent()).toBe(message!.name);
    expect((await unread([50])).list.map((m) => m.messageId)).not.toContain(message!.messageId);
    await page.keyboard.press('Escape');

    const joins = (await unread([27])).list.length;
    expect(joins).toBeGreaterThan(0);
    const bell = Number(await page.getByTestId('message-bell-count').textContent());
    await page.getByTestId('message-bell').click();
    await panel
      .getByTestId('notification-row')
      .filter({ hasText: en.messages.types.t27 })
      .first()
      .getByTestId('notification-view')
      .click();
    await page.getByTestId('units-screen').waitFor();
    expect(new URL(page.url()).pathname).toBe('/building-management/unit-management');
    await expect.poll(async () => (await unread([27])).list.length).toBe(joins - 1);
    await expect
      .poll(async () =>
        Number(
          (await page.getByTestId('message-bell-count').count())
            ? await page.getByTestId('message-bell-count').textContent()
            : 0,
        ),
      )
      .toBe(bell - 1);
  });

  it('when a conversation has more than 100 replies, then every one can be shown', async () => {
    const id = await fileRequest('complain', 'Long conversation');
    const admin = await apiToken(url(), ADMIN);
    for (let i = 1; i <= 105; i++)
      await apiCall(url(), '/complainReply/save', admin, { complainId: id, content: `Reply number ${i}` });
    const page = await (await run.context()).newPage();
    await signIn(
      page,
      url(),
      ADMIN,
      `/login?redirect=${encodeURIComponent(`/complaints-suggestions/index?open=${id}&tab=reply`)}`,
    );
    const replies = page.getByTestId('work-detail').getByTestId('reply-item');
    await expect.poll(() => replies.count()).toBe(100);
    const more = page.getByTestId('more-replies');
    expect(await more.textContent()).toBe('Show 5 more replies');
    await more.click();
    await expect.poll(() => replies.count()).toBe(105);
    expect(await replies.last().textContent()).toContain('Reply number 105');
    expect(await more.count()).toBe(0);
  });

  it('when staff without alarm permission sign in, then no SOS bell shows; the administrator has one', async () => {
    const staffPage = await (await run.context()).newPage();
    await signIn(staffPage, url(), STAFF);
    await staffPage.getByTestId('message-bell').waitFor();
    expect(await staffPage.getByTestId('alarm-bell').count()).toBe(0);
    expect(await staffPage.getByTestId('tile-alarms').count()).toBe(0);
    const adminPage = await (await run.context()).newPage();
    await signIn(adminPage, url(), ADMIN);
    await adminPage.getByTestId('alarm-bell').waitFor();
  });

  it('when staff change their password and stay, then the page stays readable, signed out', async () => {
    const page = await (await run.context()).newPage();
    await signIn(page, url(), STAFF, '/login?redirect=/event-work-order/index');
    await page.getByTestId('work-table').waitFor();
    await page.getByTestId('avatar-menu').click();
    await page.getByTestId('menu-change-password').click();
    await page.locator('input[name=oldPassword]').fill(STAFF.password);
    await page.locator('input[name=newPassword]').fill('staff789');
    await page.locator('input[name=repeat]').fill('staff789');
    await page.getByTestId('password-submit').click();
    await page.getByTestId('confirm-cancel').click();
    await page.getByTestId('signed-out-banner').waitFor();
    expect((await menuEntries(page)).length).toBeGreaterThan(1);
    expect(await page.getByTestId('work-table').locator('tbody tr').count()).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe('/event-work-order/index');
  });
});
