// Instant messaging in Chromium (issue 31), the parts im.test.ts leaves out: a picture dropped on
// the conversation and a voice message recorded in the browser (Chromium's fake microphone); the
// position kept and the "new messages" marker when a message arrives while the person reads older
// ones; a member removed by the owner, live in the removed member's console; a whole session with
// the keyboard alone.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, RESIDENT, apiCall, apiToken, signedInPage, useProductAndBrowser } from '../support/kit';

/** A staff member whose role may chat (the demo's front-desk role may not). */
const CHATTER = { username: 'chat-helper', password: 'Chatter123' };

describe('instant messaging, continued', () => {
  const run = useProductAndBrowser();
  const url = () => run.product.url;

  const personOf = async (token: string) =>
    (await apiCall<{ accountInfo: { personId: number } }>(url(), '/auth/current/user', token)).accountInfo.personId;

  /** resident1 writes each of `texts` to the administrator through the resident's API, in order. */
  async function residentWrites(...texts: string[]): Promise<number> {
    const [resident, admin] = await Promise.all([apiToken(url(), RESIDENT), apiToken(url(), ADMIN)]);
    const [from, to] = await Promise.all([personOf(resident), personOf(admin)]);
    const { groupId } = await apiCall<{ groupId: number }>(url(), `/im/chatrecord/check/chat/${from}/${to}`, resident);
    for (const content of texts) await apiCall(url(), '/im/chatrecord/save', resident, { groupId, content, type: 1 });
    return groupId;
  }

  /** What `read` answers once it answered the same five times in a row, 100 ms apart (nothing moves any more). */
  async function still<T>(read: () => Promise<T>): Promise<T> {
    let value = await read();
    for (let same = 0, tries = 0; same < 5 && tries < 150; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const next = await read();
      same = JSON.stringify(next) === JSON.stringify(value) ? same + 1 : 0;
      value = next;
    }
    return value;
  }

  const open = async (page: Page, groupId: number) => {
    await page.goto(`${url()}/instant-messaging/chat?open=${groupId}`);
    await page.getByTestId('chat-conversation').waitFor();
  };
  const sent = (page: Page) => page.locator('[data-testid=chat-history] [data-testid=chat-message][data-status=sent]');
  /** Whether `text` is drawn inside the visible part of the history. */
  const inView = (page: Page, text: string) =>
    page.locator('[data-testid=chat-history] [data-virtuoso-scroller]').evaluate((scroller, wanted) => {
      const box = scroller.getBoundingClientRect();
      return Array.from(scroller.querySelectorAll('[data-testid=chat-message]')).some((el) => {
        const r = el.getBoundingClientRect();
        return el.textContent?.includes(wanted) && r.bottom > box.top && r.top < box.bottom;
      });
    }, text);

  it('when a picture is dropped on the conversation and a voice message is recorded, then both go out, the voice with its seconds', async () => {
    const groupId = await residentWrites('Can you send me the notice?');
    const resident = await apiToken(url(), RESIDENT);
    /** The newest record of the chat, as the resident's app reads it. */
    const newest = async () =>
      (
        await apiCall<{ list: { type: number; content: string }[] }>(url(), '/im/chatrecord/list', resident, {
          groupId,
          limit: 1,
        })
      ).list[0];
    const page = await signedInPage(run, ADMIN, { path: '/login?redirect=/instant-messaging/chat' });
    await open(page, groupId);
    await page.getByTestId('chat-history').getByText('Can you send me the notice?').waitFor();
    const lastMessage = () => page.locator('[data-testid=chat-history] [data-testid=chat-message]').last();

    const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#36c' } })
      .png()
      .toBuffer();
    const files = await page.evaluateHandle(
      (bytes) => {
        const dt = new DataTransfer();
        dt.items.add(new File([new Uint8Array(bytes)], 'dropped.png', { type: 'image/png' }));
        return dt;
      },
      [...png],
    );
    const history = page.getByTestId('chat-history');
    await history.dispatchEvent('dragover', { dataTransfer: files });
    await history.dispatchEvent('drop', { dataTransfer: files });
    await expect.poll(async () => (await newest()).type, { timeout: 15_000 }).toBe(2);
    const picture = lastMessage().locator('[data-testid=chat-picture] img');
    await picture.first().waitFor({ timeout: 15_000 });
    expect((await picture.first().boundingBox())!.width).toBeLessThanOrEqual(200);

    // Recording: the button turns into Stop with the seconds so far; stopping sends it.
    await page.getByTestId('chat-voice').click();
    const stop = page.getByTestId('chat-voice-stop');
    await stop.waitFor();
    await expect.poll(() => stop.textContent(), { timeout: 15_000 }).toMatch(/[2-9]/);
    await stop.click();
    await page.getByTestId('chat-voice').waitFor();
    await expect.poll(async () => (await newest()).type, { timeout: 15_000 }).toBe(4);
    const voice = await newest();
    expect(voice.content).toMatch(/\?\d+$/);
    const seconds = Number(voice.content.split('?').pop());
    expect(seconds).toBeGreaterThanOrEqual(2);
    // Shown with its duration, as SPEC §9 writes it.
    await expect
      .poll(() => lastMessage().locator('.voice-player').textContent(), { timeout: 15_000 })
      .toContain(`${seconds}s`);
  });

  it('when a message arrives while older ones are read, then the position stays and the marker jumps to it', async () => {
    const groupId = await residentWrites(...Array.from({ length: 24 }, (_, i) => `Line ${i + 1} of the long story`));
    const page = await signedInPage(run, ADMIN, { path: '/login?redirect=/instant-messaging/chat', width: 1366 });
    await open(page, groupId);
    await expect.poll(() => inView(page, 'Line 24 of the long story'), { timeout: 15_000 }).toBe(true);
    const scroller = page.locator('[data-testid=chat-history] [data-virtuoso-scroller]');
    // The list places itself at the bottom after measuring its rows: let it finish first.
    await still(() => scroller.evaluate((el) => [el.scrollTop, el.scrollHeight]));

    // Read further up: the message at the top of the view, and where it is, must stay put.
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight - el.clientHeight - 400));
    const topLine = () =>
      scroller.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const first = Array.from(el.querySelectorAll('[data-testid=chat-message]')).find(
          (m) => m.getBoundingClientRect().bottom > box.top + 1,
        );
        return first ? { text: first.textContent, top: Math.round(first.getBoundingClientRect().top - box.top) } : null;
      });
    // Older pages load in front (the position stays): wait until the view is still.
    const before = await still(topLine);
    expect(await inView(page, 'Line 24 of the long story')).toBe(false);

    await residentWrites('Are you still there?');
    const marker = page.getByTestId('chat-new-marker');
    await marker.waitFor({ timeout: 15_000 });
    expect(await marker.textContent()).toMatch(/1/);
    const after = await topLine();
    expect(after?.text).toBe(before?.text);
    expect(Math.abs(after!.top - before!.top)).toBeLessThan(5);
    expect(await inView(page, 'Are you still there?')).toBe(false);

    await marker.click();
    await expect.poll(() => inView(page, 'Are you still there?'), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => marker.count()).toBe(0);
  });

  it("when the owner removes a member, then the member's open conversation closes as removed and the others see the line", async () => {
    const admin = await apiToken(url(), ADMIN);
    const menus = await apiCall<{ list: { menuId: number; perms: string }[] }>(url(), '/base/sysmenu/page/v2', admin, {
      page: 1,
      limit: 1000,
    });
    const { roleId } = await apiCall<{ roleId: number }>(url(), '/base/sysrole/saveorupdate', admin, {
      roleName: 'Chat desk',
      roleValue: 'CHAT',
      menuIds: menus.list.filter((m) => m.perms === '' || m.perms === 'im:list').map((m) => m.menuId),
    });
    await apiCall(url(), '/account/update', admin, { ...CHATTER, name: 'Casey Chat', roleId });
    const [staff, resident] = await Promise.all([apiToken(url(), CHATTER), apiToken(url(), RESIDENT)]);
    const [staffPerson, residentPerson] = await Promise.all([personOf(staff), personOf(resident)]);
    const { groupId } = await apiCall<{ groupId: number }>(url(), '/im/disgroup/chatgroupperson', admin, {
      groupName: 'Roof repairs',
      personIds: [staffPerson, residentPerson],
    });
    const staffName = (
      await apiCall<{ members: { personId: number; name: string }[] }>(url(), `/im/disgroup/info/${groupId}`, admin)
    ).members.find((m) => m.personId === staffPerson)!.name;

    const staffPage = await signedInPage(run, CHATTER, { path: '/login?redirect=/instant-messaging/chat' });
    await open(staffPage, groupId);
    const ownerPage = await signedInPage(run, ADMIN, { path: '/login?redirect=/instant-messaging/chat' });
    await open(ownerPage, groupId);
    await ownerPage.getByTestId('chat-group-settings').click();
    const dialog = ownerPage.getByTestId('group-settings-dialog');
    await dialog.getByTestId('group-members').getByText(staffName).waitFor();
    await dialog
      .getByTestId('group-members')
      .locator('.item')
      .filter({ hasText: staffName })
      .getByTestId('group-remove-member')
      .click();
    await ownerPage.getByTestId('confirm-ok').click();
    await expect
      .poll(() => dialog.getByTestId('group-members').locator('.item').filter({ hasText: staffName }).count(), {
        timeout: 15_000,
      })
      .toBe(0);
    await ownerPage.keyboard.press('Escape');
    await ownerPage
      .getByTestId('chat-system-line')
      .filter({ hasText: `removed ${staffName}` })
      .waitFor({ timeout: 15_000 });

    // The removed member's console, without reload: closed, no editor, the group gone from the list.
    await staffPage
      .getByTestId('chat-closed')
      .filter({ hasText: 'You are no longer a member of this group.' })
      .waitFor({ timeout: 15_000 });
    expect(await staffPage.getByTestId('chat-input').count()).toBe(0);
    // The resident's app no longer lists the staff member among the group's members.
    const members = await apiCall<{ personId: number }[]>(url(), `/im/disgroupmem/list/${groupId}`, resident, {});
    const ids = members.map((m) => m.personId);
    expect(ids).toContain(residentPerson);
    expect(ids).not.toContain(staffPerson);
  });

  it('when staff use the chat with the keyboard alone, then they reach a conversation, write two lines and send them', async () => {
    const groupId = await residentWrites('Keyboard check, please answer');
    const page = await signedInPage(run, ADMIN, { path: '/login?redirect=/instant-messaging/chat' });
    await page.getByTestId('chat-list-row').first().waitFor();
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return { testid: el?.dataset.testid ?? '', href: el?.getAttribute('href') ?? '' };
      });
    /** Tab until the focus is on what `want` accepts; fails after 80 steps. */
    const tabTo = async (want: (f: { testid: string; href: string }) => boolean) => {
      for (let i = 0; i < 80; i++) {
        if (want(await focused())) return;
        await page.keyboard.press('Tab');
      }
      throw new Error(`not reached by Tab; focus is on ${JSON.stringify(await focused())}`);
    };

    await tabTo((f) => f.testid === 'chat-list-row' && f.href.endsWith(`open=${groupId}`));
    await page.keyboard.press('Enter');
    await page.getByTestId('chat-conversation').waitFor();
    await page.getByTestId('chat-history').getByText('Keyboard check, please answer').waitFor();
    await tabTo((f) => f.testid === 'chat-input');
    await page.keyboard.type('Answering with the keyboard');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    await page.keyboard.press('Enter');
    const mine = sent(page).filter({ hasText: 'second line' });
    await mine.waitFor({ timeout: 15_000 });
    expect(await mine.textContent()).toContain('Answering with the keyboard');
    // Focus stays in the editor for the next message.
    expect((await focused()).testid).toBe('chat-input');
  });
});
