// The chaos run's Chromium console (issue 35): the real console (client/dist, served by a gateway)
// signed in as the administrator in Debian's Chromium (playwright-core), checked like the
// socket.io tabs. What it holds is read from what the browser itself received and read: the
// socket.io frames of its live connection (snapshots and events, with the console's rule: after a
// (re)connect the next snapshot whatever its version, then only newer ones) and the answers of its
// own catch-up reads of open SOS calls and warnings (client/src/modules/disaster). A dropped tab is
// a network blip: the browser goes offline for a moment.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { applyEvent, emptySnapshot, TOPICS, type LiveEvent, type LiveSnapshot } from '@pm/shared';
import { launchBrowser, signIn } from '../support/kit';
import { repoRoot } from '../support/product';

/**
 * How a tab first knew of an alarm: live; or a catch-up read on a (re)connect, on a snapshot, on a
 * live SOS event (the open calls are read again on each), or a retry of a failed read.
 */
export type AlarmHow = 'live' | 'catchUpReconnect' | 'catchUpSnapshot' | 'catchUpEvent' | 'catchUpRetry';

const topics = new Set<string>(TOPICS);

export class BrowserTab {
  readonly events: { e: LiveEvent; at: number }[] = [];
  readonly sosSeen = new Map<number, number>();
  readonly warnSeen = new Map<number, number>();
  readonly seenHow = new Map<string, AlarmHow>();
  held: LiveSnapshot = emptySnapshot();
  snapshots = 0;
  readonly disconnects: string[] = [];
  /** What happened to the tab and when (connects, closes, snapshots, catch-up reads): to explain a late alarm. */
  readonly trace: { at: number; what: string }[] = [];
  private loaded = false;
  private acceptAny = true;
  private connectedNow = false;
  /** A (re)connect or a failed catch-up read since the last read that succeeded. */
  private sinceRead: AlarmHow = 'catchUpReconnect';
  private browser!: Browser;
  private context!: BrowserContext;
  page!: Page;

  private constructor(readonly gatewayUrl: string) {}

  /** Opens the console on `gatewayUrl` and signs in as the administrator. */
  static async open(gatewayUrl: string): Promise<BrowserTab> {
    if (!existsSync(join(repoRoot, 'client/dist/index.html')))
      throw new Error('The Chromium console needs the built console: npm run build');
    const tab = new BrowserTab(gatewayUrl);
    tab.browser = await launchBrowser();
    tab.context = await tab.browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-US' });
    await tab.context.addCookies([{ name: 'language', value: 'en', url: gatewayUrl }]);
    tab.page = await tab.context.newPage();
    tab.page.on('websocket', (ws) => {
      if (!ws.url().includes('/socket.io/')) return;
      ws.on('framereceived', (f) => tab.packets(String(f.payload)));
      ws.on('close', () => {
        tab.trace.push({ at: Date.now(), what: 'websocket closed' });
        tab.connectedNow = false;
        tab.disconnects.push('websocket closed');
      });
    });
    tab.page.on('response', (res) => {
      const url = res.url();
      if (url.includes('/socket.io/') && url.includes('transport=polling') && res.request().method() === 'GET')
        void res.text().then(
          (text) => text.split('\x1e').forEach((p) => tab.packets(p)),
          () => undefined,
        );
      else if (url.endsWith('/api/disaster/sos/open') || url.endsWith('/api/disaster/warn/page')) void tab.read(res);
    });
    tab.page.on('requestfailed', (req) => {
      const url = req.url();
      if (url.endsWith('/api/disaster/sos/open') || url.endsWith('/api/disaster/warn/page'))
        tab.trace.push({ at: Date.now(), what: `read ${url.split('/api')[1]} failed: ${req.failure()?.errorText}` });
    });
    await signIn(tab.page, gatewayUrl, { username: 'admin', password: 'admin123' });
    return tab;
  }

  /** One engine.io packet: `40…` a (re)connect of the socket, `42[…]` an event. */
  private packets(p: string) {
    if (p.startsWith('40')) {
      this.trace.push({ at: Date.now(), what: 'connect' });
      this.connectedNow = true;
      this.acceptAny = true;
      this.sinceRead = 'catchUpReconnect';
      return;
    }
    if (p.startsWith('41')) {
      this.trace.push({ at: Date.now(), what: 'disconnect io server disconnect' });
      this.connectedNow = false;
      this.disconnects.push('io server disconnect');
      return;
    }
    if (!p.startsWith('42')) return;
    let name: string;
    let data: unknown;
    try {
      [name, data] = JSON.parse(p.slice(2).replace(/^\d+/, '')) as [string, unknown];
    } catch {
      return;
    }
    const at = Date.now();
    if (name === 'snapshot') {
      const s = data as LiveSnapshot;
      this.trace.push({ at, what: `snapshot ${s.version}` });
      this.snapshots += 1;
      this.loaded = true;
      if (this.acceptAny || s.version >= this.held.version) this.held = s;
      this.acceptAny = false;
      if (this.sinceRead === 'catchUpSnapshot' || this.sinceRead === 'live') this.sinceRead = 'catchUpSnapshot';
      return;
    }
    if (!topics.has(name)) return;
    const e = data as LiveEvent;
    this.events.push({ e, at });
    if (e.topic === 'alarms' && e.kind === 'sos' && e.dataId !== undefined) this.saw('sos', e.dataId, at, 'live');
    if (e.topic === 'alarms' && e.kind === 'disasterWarning' && e.dataId !== undefined)
      this.saw('warn', e.dataId, at, 'live');
    if (this.loaded) this.held = applyEvent(this.held, e);
  }

  /** The console's own catch-up reads: what it found is known to it now. */
  private async read(res: import('playwright-core').Response) {
    const at = Date.now();
    this.trace.push({ at, what: `read ${res.url().split('/api')[1]} ${res.status()}` });
    if (!res.ok()) {
      this.sinceRead = 'catchUpRetry';
      return;
    }
    try {
      const body = (await res.json()) as { data?: { id: number }[] | { list: { id: number }[] } };
      const how = this.sinceRead;
      if (res.url().endsWith('/sos/open'))
        for (const c of (body.data as { id: number }[]) ?? []) this.saw('sos', c.id, at, how);
      else for (const w of (body.data as { list: { id: number }[] })?.list ?? []) this.saw('warn', w.id, at, how);
      this.sinceRead = 'catchUpSnapshot';
    } catch {
      // The page went away meanwhile.
    }
  }

  private saw(kind: 'sos' | 'warn', id: number, at: number, how: AlarmHow) {
    const seen = kind === 'sos' ? this.sosSeen : this.warnSeen;
    if (seen.has(id)) return;
    seen.set(id, at);
    this.seenHow.set(`${kind}:${id}`, how);
  }

  connected(): boolean {
    return this.connectedNow;
  }

  /** Subscribed and holding counters. */
  ready(): boolean {
    return this.loaded;
  }

  /** A network blip: the browser is offline for `ms`, then back (the console reconnects by itself). */
  async drop(ms: number): Promise<void> {
    await this.context.setOffline(true);
    await new Promise((r) => setTimeout(r, ms));
    await this.context.setOffline(false);
  }

  async close(): Promise<void> {
    await this.browser?.close().catch(() => undefined);
  }
}
