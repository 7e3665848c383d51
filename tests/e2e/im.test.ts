// Instant messaging in Chromium (issue 31): a resident's message arrives live in the open
// conversation and as the notification elsewhere; staff reply with text, a pasted picture and a
// file; a failed send is resent; a group is created and dissolved; the Pinyin search; a message
// becomes a work order; the three screens in en, zh-CN and zh-TW at 390 px, with the keyboard,
// without axe-core critical or serious findings.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  ADMIN,
  RESIDENT,
  apiCall,
  apiToken,
  axeViolations,
  blocking,
  signedInPage,
  useProductAndBrowser,
} from '../support/kit';

describe('instant messaging', () => {
  const run = useProductAndBrowser();
  const url = () => run.product.url;

  const personOf = async (token: string) =>
    (await apiCall<{ accountInfo: { personId: number } }>(url(), '/auth/current/user', token)).accountInfo.personId;

  /** resident1 writes `text` to the administrator through the resident's API (as the app does). */
  async function residentWrites(text: string): Promise<number> {
    const [resident, admin] = await Promise.all([apiToken(url(), RESIDENT), apiToken(url(), ADMIN)]);
    const [from, to] = await Promise.all([personOf(resident), personOf(admin)]);
    const { groupId } = await apiCall<{ groupId: number }>(url(), `/im/chatrecord/check/chat/${from}/${to}`, resident);
    await apiCall(url(), '/im/chatrecord/save', resident, { groupId, content: text, type: 1 });
    return groupId;
  }

  async function expectAccessible(page: Page, what: string) {
    expect(blocking(await axeViolations(page)), what).toEqual([]);
  }

  const conversationOf = async (page: Page, name: RegExp) => {
    await page.getByTestId('chat-list-row').filter({ hasText: name }).first().click();
    await page.getByTestId('chat-conversation').waitFor();
  };

  it('when a resident writes, then the open conversation shows it live, elsewhere the notification opens it, and the reply goes out with text, a pasted picture and a file', async () => {
    const page = await signedInPage(run, ADMIN, { path: '/login?redirect=/dashboard' });
    // The tab must be live before the resident writes: a message stored while it still connects is
    // counted by the snapshot it then gets, not notified (the first wait of this test missed at load).
    await expect.poll(() => page.getByTestId('connection-status').getAttribute('data-status')).toBe('live');
    // Elsewhere: the bottom-right notification, which opens that conversation.
    const groupId = await residentWrites('Is anyone at the front desk?');
    const note = page.getByTestId('chat-notification').filter({ hasText: 'Is anyone at the front desk?' });
    await note.waitFor({ timeout: 15_000 });
    await note.getByTestId('chat-notification-open').click();
    await page.waitForURL(new RegExp(`/instant-messaging/chat\\?open=${groupId}`));
    const history = page.getByTestId('chat-history');
    await history.getByText('Is anyone at the front desk?').waitFor();

    // In the open conversation: live, and no notification there.
    await residentWrites('I am waiting in the lobby');
    await history.getByText('I am waiting in the lobby').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('chat-notification').filter({ hasText: 'waiting in the lobby' }).count()).toBe(0);

    // Text with the keyboard alone: Enter sends, Shift+Enter is a new line.
    const input = page.getByTestId('chat-input');
    await input.focus();
    await page.keyboard.type('Coming down now');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('one minute');
    await page.keyboard.press('Enter');
    await history.locator('[data-testid=chat-message][data-status=sent]').filter({ hasText: 'one minute' }).waitFor();
    expect(await input.inputValue()).toBe('');

    // A pasted picture (Ctrl+V) and a file.
    const sentPictures = history.locator('[data-testid=chat-message][data-status=sent] [data-testid=chat-picture] img');
    const picturesBefore = await sentPictures.count();
    const png = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#2a6' } })
      .png()
      .toBuffer();
    await input.evaluate(
      (el, bytes) => {
        const dt = new DataTransfer();
        dt.items.add(new File([new Uint8Array(bytes)], 'pasted.png', { type: 'image/png' }));
        el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
      },
      [...png],
    );
    await expect.poll(() => sentPictures.count(), { timeout: 15_000 }).toBe(picturesBefore + 1);
    const picture = sentPictures.last();
    expect((await picture.boundingBox())!.width).toBeLessThanOrEqual(200);
    await page.getByTestId('chat-file-input').setInputFiles({
      name: 'Lift notice.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('The lift is serviced on Friday.\n'),
    });
    const file = history
      .locator('[data-testid=chat-message][data-status=sent] [data-testid=chat-file]')
      .filter({ hasText: 'Lift notice.txt' });
    await file.waitFor({ timeout: 15_000 });
    expect(await file.textContent()).toContain('B');

    // The resident's app sees them in order, each once.
    const resident = await apiToken(url(), RESIDENT);
    const records = await apiCall<{ list: { type: number; content: string }[] }>(
      url(),
      '/im/chatrecord/list',
      resident,
      {
        groupId,
        limit: 3,
      },
    );
    expect(records.list.map((r) => r.type).sort()).toEqual([1, 2, 5]);
    await expectAccessible(page, 'chat with an open conversation');
    await picture.click();
    await page.getByTestId('chat-picture-dialog').waitFor();
    await expectAccessible(page, 'picture dialog');
    await page.keyboard.press('Escape');
  });

  it('when a send fails on the network, then the message stays as failed and Resend stores it once', async () => {
    const page = await signedInPage(run, ADMIN, { path: '/login?redirect=/instant-messaging/chat' });
    await conversationOf(page, /Resident 2/);
    let refused = 0;
    await page.route('**/api/im/chatrecord/save', (route) => {
      refused++;
      return route.abort('connectionreset');
    });
    await page.getByTestId('chat-input').fill('Sent on a bad line');
    await page.getByTestId('chat-send').click();
    const failed = page
      .locator('[data-testid=chat-message][data-status=failed]')
      .filter({ hasText: 'Sent on a bad line' });
    await failed.waitFor({ timeout: 15_000 });
    expect(refused).toBe(1);
    await page.unroute('**/api/im/chatrecord/save');
    await failed.getByTestId('chat-resend').click();
    await page
      .locator('[data-testid=chat-message][data-status=sent]')
      .filter({ hasText: 'Sent on a bad line' })
      .waitFor({ timeout: 15_000 });
    // Once in the history (the conversation list may show it too, as the last message).
    await expect.poll(() => page.getByTestId('chat-history').getByText('Sent on a bad line').count()).toBe(1);
  });

  it('when staff create a group from the address book and dissolve it, then name and members are required, and each step is a line every member sees', async () => {
    const page = await signedInPage(run, ADMIN, { path: '/login?redirect=/instant-messaging/address-book' });
    await page.getByTestId('book-create-group').click();
    const dialog = page.getByTestId('group-create-dialog');
    await dialog.waitFor();
    await dialog.getByTestId('group-create-submit').click();
    await dialog.getByText('Please enter the group name').waitFor();
    await dialog.getByText('Please choose at least one member').waitFor();
    await expectAccessible(page, 'group creation dialog');
    await dialog.locator('#group-name').fill('Pool opening');
    await dialog.getByTestId('person-picker-search').locator('input').fill('Resident 3');
    // The search answers with matches only; pick from that list, not from the one it replaces.
    const options = dialog.getByTestId('person-picker-option');
    await expect.poll(() => options.filter({ hasNotText: 'Resident 3' }).count()).toBe(0);
    await options.filter({ hasText: 'Resident 3' }).first().click();
    await dialog
      .locator('.person-picker-chosen')
      .getByText(/^Resident 3/)
      .waitFor();
    await dialog.getByTestId('group-create-submit').click();
    await page.waitForURL(/\/instant-messaging\/chat\?open=\d+/);
    await page.getByTestId('chat-title').filter({ hasText: 'Pool opening' }).waitFor();
    await page.getByTestId('chat-system-line').filter({ hasText: 'created the group' }).waitFor();

    await page.getByTestId('chat-group-settings').click();
    await page.getByTestId('group-settings-dialog').waitFor();
    await expectAccessible(page, 'group settings dialog');
    await page.getByTestId('group-dissolve').click();
    await page.getByTestId('confirm-ok').click();
    await page.waitForURL(/\/instant-messaging\/chat$/);
    await expect.poll(() => page.getByTestId('chat-list-row').filter({ hasText: 'Pool opening' }).count()).toBe(0);
  });

  it('when the Pinyin switch is on, then "zs" finds 张三 in the address book; off, it does not', async () => {
    const page = await signedInPage(run, ADMIN, { path: '/login?redirect=/instant-messaging/address-book' });
    await page.getByTestId('book-entry').first().waitFor();
    // Staff whose role has no chat are told apart in words, with no greyed-out button to puzzle over.
    const noChat = page.getByTestId('book-entry').filter({ hasText: 'Sam Lee' });
    await noChat.getByTestId('book-no-chat').waitFor();
    expect(await noChat.getByTestId('book-chat').count()).toBe(0);
    await page.getByTestId('book-search').locator('input').fill('zs');
    await page.getByText('Nobody matches this search.').waitFor();
    await page.getByTestId('settings-handle').click();
    await page.getByTestId('setting-pinyin-search').click();
    await page.keyboard.press('Escape');
    await page.getByTestId('book-entry').filter({ hasText: '张三' }).waitFor({ timeout: 10_000 });
    await page.getByTestId('book-search').locator('input').fill('zhangsan');
    await page.getByTestId('book-entry').filter({ hasText: '张三' }).waitFor();

    // From a resident's entry: the chat record (read-only) and their houses.
    await page.getByTestId('book-tab-residents').click();
    await page.getByTestId('book-search').locator('input').fill('Resident 1');
    const entry = page.getByTestId('book-entry').filter({ hasText: 'Resident 1 Chan' }).first();
    await entry.getByTestId('book-chat-record').click();
    const record = page.getByTestId('chat-record-dialog');
    await record.getByTestId('chat-message').first().waitFor();
    expect(await record.getByTestId('chat-input').count()).toBe(0);
    await expectAccessible(page, 'chat record dialog');
    await page.keyboard.press('Escape');
    await entry.getByTestId('book-houses').click();
    await page.getByTestId('person-houses-dialog').getByText('Block A / 1/F / 1A').waitFor();
    await expectAccessible(page, 'houses dialog');
    await page.keyboard.press('Escape');
  });

  it("when staff turn a resident's message into a work order, then it is filed in two clicks and the conversation links it", async () => {
    const page = await signedInPage(run, ADMIN, { path: '/login?redirect=/instant-messaging/chat' });
    await conversationOf(page, /Resident 1/);
    const message = page.getByTestId('chat-message').filter({ hasText: 'The leak is back since this morning' });
    // The seeded message sits above the ones the first test wrote (a picture among them): scroll up to it
    // with the wheel, as a person does. Playwright's own scroll into view is a script's scroll: if the
    // history grows in the same moment (the picture loading), the history takes it for growth and
    // follows its newest message again, and the click waits on a row scrolled away, or not drawn at all.
    await page.getByTestId('chat-history').hover();
    await expect
      .poll(
        async () => {
          if (await message.isVisible()) return true;
          await page.mouse.wheel(0, -300);
          return false;
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    await message.getByTestId('chat-make-work').click();
    const dialog = page.getByTestId('make-work-dialog');
    await dialog.waitFor();
    await expect.poll(() => dialog.getByTestId('make-work-submit').isEnabled(), { timeout: 10_000 }).toBe(true);
    await expectAccessible(page, 'make work order dialog');
    await dialog.getByTestId('make-work-submit').click();
    const made =
      (await dialog
        .getByText(/created/)
        .first()
        .textContent()) ?? '';
    const code = /[A-Z]+\d+/.exec(made)?.[0] ?? '';
    expect(code).not.toBe('');
    await page.keyboard.press('Escape');
    // The line is the newest item of the (virtualized) history: at its bottom.
    const line = page.getByTestId('chat-system-line').filter({ hasText: `made complaint ${code}` });
    const scroller = page.locator('[data-testid=chat-history] [data-virtuoso-scroller]');
    await expect
      .poll(
        async () => {
          await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
          return line.count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    expect(
      await page.getByTestId('chat-system-line').filter({ hasText: code }).getByRole('link').getAttribute('href'),
    ).toMatch(/^\/complaints-suggestions\/index\?open=\d+$/);
    // The side panel lists it among the resident's open complaints, with a link to it.
    await page.getByTestId('resident-panel').getByRole('link', { name: code }).waitFor({ timeout: 15_000 });
  });

  it('when the three screens open in en, zh-CN and zh-TW at 390 px, then nothing widens the page and axe finds nothing critical or serious', async () => {
    for (const language of ['en', 'zh-CN', 'zh-TW']) {
      const page = await signedInPage(run, ADMIN, {
        language,
        width: 390,
        path: '/login?redirect=/instant-messaging/chat',
      });
      for (const path of [
        '/instant-messaging/chat',
        '/instant-messaging/address-book',
        '/instant-messaging/address-book-settings',
      ]) {
        await page.goto(url() + path);
        await page
          .locator('[data-testid=chat-list-row], [data-testid=book-entry], [data-testid=book-settings]')
          .first()
          .waitFor();
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(wide, `${language} ${path}`).toBeLessThanOrEqual(390);
        await expectAccessible(page, `${language} ${path}`);
      }
      // The conversation at 390 px: the list gives way to it, and Back returns.
      await page.goto(url() + '/instant-messaging/chat');
      await conversationOf(page, /Resident 1/);
      expect(await page.getByTestId('chat-list').isVisible()).toBe(false);
      await page.getByTestId('chat-back').click();
      await page.getByTestId('chat-list').waitFor();
      await page.close();
    }
  });
});
