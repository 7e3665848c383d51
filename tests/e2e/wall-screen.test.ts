// The wall screen (issue 22) end to end, in real Chromium against the product as `npm start` runs
// it: the wall account lands on /wall; a resident's complaint, work order and SOS change an open
// wall within a second (the SOS flashes and sounds); with its network cut for 30 s it says
// "offline", marks its figures not current, and once back shows every alarm raised meanwhile; the
// wall account opens no staff screen and writes nothing (403); three languages at 390 and 1920 px.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  ADMIN,
  apiCall,
  apiToken,
  axeViolations,
  blocking,
  fillLogin,
  repoRoot,
  STAFF,
  signIn,
  useProductAndBrowser,
} from '../support/kit';

const WALL = { username: 'wall', password: 'wall123' };
const RESIDENT = { username: 'resident2', password: 'resident123' };
const LOCALES = Object.fromEntries(
  ['en', 'zh-CN', 'zh-TW'].map((l) => [l, JSON.parse(readFileSync(join(repoRoot, 'locales', `${l}.json`), 'utf8'))]),
) as Record<
  string,
  {
    wall: { title: string; alarms: string; open: string; actions: { exitFullScreen: string } };
    layout: { connection: Record<string, string> };
  }
>;
/** Where the screenshots go (look at them): WALL_SHOTS, or a folder under the system's temp. */
const SHOTS = process.env.WALL_SHOTS ?? join(repoRoot, '.tmp', 'wall-shots');

/** Records every sound a page starts (the console plays the alarm through HTMLMediaElement.play). */
async function recordSounds(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { sounds: string[] };
    w.sounds = [];
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      w.sounds.push(this.src);
      return play.call(this);
    };
  });
}
const sounds = (page: Page) => page.evaluate(() => (window as unknown as { sounds: string[] }).sounds);

const countOf = (page: Page, testId: string) => page.getByTestId(testId).getAttribute('data-count');
const status = (page: Page) => page.getByTestId('wall-connection').getAttribute('data-status');
const alarmKeys = (page: Page) =>
  page.getByTestId('wall-alarm').evaluateAll((els) => els.map((e) => e.getAttribute('data-key') ?? ''));

describe('wall screen', () => {
  const run = useProductAndBrowser({ SOS_REANNOUNCE_MS: '600000' });

  /** A wall screen signed in through the login form, current (live and read). */
  async function wallPage(language = 'en', width = 1920): Promise<Page> {
    const page = await (await run.context(language, width)).newPage();
    await recordSounds(page);
    await page.goto(run.product.url + '/login');
    await fillLogin(page, WALL);
    await page.waitForURL(/\/wall$/, { timeout: 30_000 });
    await page.locator('[data-testid=wall-counts][data-current=true]').waitFor({ timeout: 30_000 });
    return page;
  }

  async function resident() {
    const token = await apiToken(run.product.url, RESIDENT);
    const [house] = await apiCall<{ houseType: number; houseId: number }[]>(run.product.url, '/app/house/list', token);
    return {
      sos: (position: string) =>
        apiCall<{ sosHelpId: number }>(run.product.url, '/app/sos/help', token, { ...house, position }),
      complain: (name: string) =>
        apiCall<{ complainId: number }>(run.product.url, '/app/complain/save', token, { ...house, name, note: '-' }),
      order: (name: string) =>
        apiCall<{ eventOrderId: number }>(run.product.url, '/app/eventOrder/save', token, {
          ...house,
          name,
          note: '-',
          type: 1,
        }),
    };
  }

  it('when a resident files a complaint, a work order and an SOS, then two open wall screens change within a second, the SOS first, flashing and sounding', async () => {
    // Two wall screens of the one account (a lobby and a control room), one in Chinese at 390 px.
    const page = await wallPage();
    const second = await wallPage('zh-CN', 390);
    const walls = [page, second];
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    expect(await page.locator('[role=dialog]').count()).toBe(0);
    const r = await resident();
    const before = {
      complaints: Number(await countOf(page, 'wall-complaints-untreated')),
      orders: Number(await countOf(page, 'wall-eventOrders-untreated')),
    };
    const within = (p: Page, testId: string, value: number) =>
      expect.poll(() => countOf(p, testId), { timeout: 1000, interval: 50 }).toBe(String(value));

    await r.complain('Wall: noise at night');
    for (const p of walls) await within(p, 'wall-complaints-untreated', before.complaints + 1);
    await r.order('Wall: lift stuck');
    for (const p of walls) await within(p, 'wall-eventOrders-untreated', before.orders + 1);

    const { sosHelpId } = await r.sos('Wall: car park level 2');
    const sosRow = (p: Page) => p.locator(`[data-testid=wall-alarm][data-key="sos:${sosHelpId}"]`);
    const shownAt = Date.now();
    for (const p of walls) await sosRow(p).waitFor({ timeout: Math.max(1, 1000 - (Date.now() - shownAt)) });
    const row = sosRow(page);
    expect(await row.getAttribute('data-state')).toBe('open');
    expect(await row.getAttribute('class')).toContain('fresh');
    expect(await row.textContent()).toContain('Wall: car park level 2');
    expect(await row.textContent()).toContain(LOCALES.en.wall.open);
    expect(await sosRow(second).textContent()).toContain(LOCALES['zh-CN'].wall.open);
    expect((await alarmKeys(page))[0]).toMatch(/^sos:/);
    // Unacknowledged calls come first.
    const states = await page
      .getByTestId('wall-alarm')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));
    expect(states.slice(0, states.lastIndexOf('open') + 1).every((s) => s === 'open')).toBe(true);
    for (const p of walls)
      await expect.poll(() => sounds(p)).toContainEqual(expect.stringContaining('/sounds/sos-alarm.wav'));

    // Acknowledged by staff: the row says so and moves behind the unacknowledged calls.
    const admin = await apiToken(run.product.url, ADMIN);
    await apiCall(run.product.url, `/disaster/sos/${sosHelpId}/acknowledge`, admin, {});
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 1000, interval: 50 }).toBe('acknowledged');
    for (const p of walls) await p.close();
  });

  it('when its network is cut for 30 s, then it says "offline since hh:mm" with figures marked not current, and once back it shows every alarm raised meanwhile', async () => {
    const page = await wallPage();
    const context = page.context();
    const r = await resident();
    const admin = await apiToken(run.product.url, ADMIN);
    const cutAt = Date.now();
    await context.setOffline(true);
    await expect.poll(() => status(page), { timeout: 15_000 }).toMatch(/reconnecting|offline/);
    // Not current the moment the link is gone: the figures stay, marked.
    await page.locator('[data-testid=wall-counts][data-current=false]').waitFor({ timeout: 5000 });
    await page.getByTestId('wall-stale').waitFor();

    // Meanwhile: three SOS calls (one acknowledged at once), a warning, a complaint.
    const missed = [];
    for (const where of ['Offline 1', 'Offline 2', 'Offline 3']) missed.push((await r.sos(where)).sosHelpId);
    await apiCall(run.product.url, `/disaster/sos/${missed[2]}/acknowledge`, admin, {});
    const warning = await apiCall<{ id: number }>(run.product.url, '/disaster/warn/save', admin, {
      type: 1,
      content: 'Wall: fire alarm test in Block A',
    });
    const complaintsBefore = await countOf(page, 'wall-complaints-untreated');
    await r.complain('Wall: filed while offline');

    await expect.poll(() => status(page), { timeout: 25_000 }).toBe('offline');
    const text = (await page.getByTestId('wall-connection').textContent())!.trim();
    expect(text).toMatch(/Offline since \d{2}:\d{2}$/);
    expect(await page.getByTestId('wall-stale').textContent()).toContain('Not current');
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'wall-offline-en-1920.png') });
    expect(await countOf(page, 'wall-complaints-untreated')).toBe(complaintsBefore);
    for (const id of missed) expect(await alarmKeys(page)).not.toContain(`sos:${id}`);
    await page.waitForTimeout(Math.max(0, 30_000 - (Date.now() - cutAt)));

    await context.setOffline(false);
    await expect.poll(() => status(page), { timeout: 30_000 }).toBe('live');
    await page.locator('[data-testid=wall-counts][data-current=true]').waitFor({ timeout: 10_000 });
    const keys = await alarmKeys(page);
    for (const id of missed) expect(keys).toContain(`sos:${id}`);
    expect(keys).toContain(`warn:${warning.id}`);
    expect(await page.locator(`[data-key="sos:${missed[2]}"]`).getAttribute('data-state')).toBe('acknowledged');
    expect(await countOf(page, 'wall-complaints-untreated')).toBe(String(Number(complaintsBefore) + 1));
    // Polled: the reading that follows a reconnect can mark the screen behind again for a moment
    // (failed once under load as an immediate count, right after data-current=true).
    await expect.poll(() => page.getByTestId('wall-stale').count()).toBe(0);
    // The calls it missed flash and sound too.
    expect(await page.locator(`[data-key="sos:${missed[0]}"]`).getAttribute('class')).toContain('fresh');
    await page.close();
  }, 120_000);

  it('when the wall account opens staff screens or calls write endpoints, then it stays on the wall and gets 403; staff cannot open the wall', async () => {
    const page = await wallPage();
    // Should a path not land on /wall, the answers that failed say why.
    const failed: string[] = [];
    page.on('response', (r) => void (r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`)));
    for (const path of ['/dashboard', '/complaints-suggestions/index', '/disaster-warning/alert-detail', '/']) {
      await page.goto(run.product.url + path);
      await page.waitForURL(/\/wall$/, { timeout: 10_000 }).catch(async (e: Error) => {
        throw new Error(`${path}: ${e.message}\n${failed.join('\n')}\n${await page.locator('body').innerText()}`);
      });
      await page.getByTestId('wall-screen').waitFor();
    }
    const token = await apiToken(run.product.url, WALL);
    const r = await resident();
    const { sosHelpId } = await r.sos('Wall: may not acknowledge');
    const calls: [string, object | undefined][] = [
      [`/disaster/sos/${sosHelpId}/acknowledge`, {}],
      ['/disaster/warn/save', { type: 1, content: 'x' }],
      ['/complain/query/list', { page: 1, limit: 10 }],
      ['/disaster/sos/open', undefined],
      ['/account/update', { username: 'wallmade', password: 'Secret123', name: 'x', roleId: 1 }],
    ];
    for (const [path, body] of calls) {
      const res = await fetch(`${run.product.url}/api${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', lang: 'zh-TW' },
        body: body ? JSON.stringify(body) : undefined,
      });
      expect(res.status, path).toBe(403);
      expect(((await res.json()) as { msg: string }).msg, path).toMatch(/[\u4e00-\u9fff]/);
    }
    const feed = await apiCall<{ sos: { id: number; state: string }[] }>(run.product.url, '/wall/feed', token);
    expect(feed.sos.find((c) => c.id === sosHelpId)?.state).toBe('open');
    await page.close();

    const staff = await (await run.context()).newPage();
    await signIn(staff, run.product.url, STAFF);
    await staff.goto(run.product.url + '/wall');
    await staff.waitForURL(/\/404$/, { timeout: 10_000 });
    await staff.close();
  });

  it('when shown in three languages at 390 and 1920 px, then it reads in that language, fits the width, and the full-screen button works from the keyboard', async () => {
    mkdirSync(SHOTS, { recursive: true });
    for (const language of ['en', 'zh-CN', 'zh-TW']) {
      for (const width of [390, 1920]) {
        const page = await wallPage(language, width);
        const words = LOCALES[language].wall;
        expect(await page.locator('h1').textContent()).toBe(words.title);
        expect(await page.locator('#wall-alarms-title').textContent()).toBe(words.alarms);
        expect(await page.getByTestId('wall-connection').textContent()).toContain(
          LOCALES[language].layout.connection.live,
        );
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        // The estate's clock: the estate's zone (Asia/Hong_Kong in the demo), not the browser's.
        expect(await page.getByTestId('wall-clock').getAttribute('data-time-zone')).toBe('Asia/Hong_Kong');
        await page.screenshot({ path: join(SHOTS, `wall-${language}-${width}.png`) });
        // axe-core: no critical or serious violation (contrast of the dark theme, names, landmarks).
        expect(blocking(await axeViolations(page)).map((v) => `${v.id} ${v.targets.join(' | ')} ${v.summary}`)).toEqual(
          [],
        );
        if (language === 'en' && width === 1920) {
          // Keyboard: Tab reaches the full-screen button, Enter enters full screen.
          let focused = '';
          for (let i = 0; i < 10 && focused !== 'wall-fullscreen'; i++) {
            await page.keyboard.press('Tab');
            focused = await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');
          }
          expect(focused).toBe('wall-fullscreen');
          await page.keyboard.press('Enter');
          await expect
            .poll(() => page.evaluate(() => document.fullscreenElement?.getAttribute('data-testid')))
            .toBe('wall-screen');
          // The button's words follow the fullscreenchange event, which comes after fullscreenElement is set.
          await expect.poll(() => page.getByTestId('wall-fullscreen').textContent()).toBe(words.actions.exitFullScreen);
        }
        await page.close();
      }
    }
  }, 180_000);
});
