// Bench helper process (forked with IPC): the console tabs. Opens many tabs and records, for every event
// received, when it arrived and how long after the api push (the push carries its send time). The tabs behave as
// the console's (client/src/modules/live/utils/liveSocket.ts): a lost transport is reconnected by itself, a
// refusal "for now" (429, 502, 503) is retried after a pause (503: at least its retryAfter), and every (re)connection
// subscribes again. Each tab is a TabClient (tab-client.ts: socket.io's wire protocol over one `ws`, README
// "Part 30"): what the gateway sees is socket.io-client's, at a fraction of its CPU on the gateways' cores.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { LiveSnapshot } from '@pm/shared';
import { sentAtOf, TabClient } from './tab-client';

interface Tab {
  socket: TabClient;
  snapshots: number;
  last: LiveSnapshot | null;
  /** Its connection was lost since the last `arm` (with two gateways, only the killed one's tabs). */
  lost: boolean;
  /** The gateway it is on (an index the bench gave with `routes`), -1 unknown. */
  gateway: number;
}
const now = () => performance.timeOrigin + performance.now();
const tabs: Tab[] = [];
/** [arrivedAt, latency, gateway, arrivedAt, latency, gateway, …] in ms (gateway: the tab's, -1 unknown). */
let latencies: number[] = [];
/** Refusals by code (`connect_error` data.code) since the last `arm`. */
let refusals: Record<string, number> = {};
/** Transport failures seen by connected-before tabs since the gateway restarted (not while it was down). */
let gatewayUp = true;
/** Between `arm` and the next `arm`: a lost connection marks its tab as one that has to come back. */
let armed = false;
let transportErrorsWhileUp = 0;

// This process's own event-loop delay between two `collect`s: a delivery's latency is read when the
// loop gets to its frame, so the tabs' own lag is in every figure (README "Part 38").
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

// engine.io-client's rule: a tab that has had no ping for the server's interval and timeout has lost its transport.
setInterval(() => {
  const time = Date.now();
  for (const t of tabs) t.socket.checkPing(time);
}, 5_000).unref();

/** `localAddress`: the address the tab connects from (its person's browser; loopback in the bench). */
function openTab(url: string, token: string, localAddress?: string): Promise<Tab> {
  let resolveOpen: (tab: Tab) => void = () => undefined;
  let opened = false;
  const tab: Tab = {
    socket: new TabClient(url, token, localAddress, {
      onEvent(name, frame) {
        if (name === 'announcements') {
          // The benchmark's own field on its pushes, beside the announcement's payload.
          const sentAt = sentAtOf(frame);
          if (!sentAt) return;
          const arrivedAt = now();
          latencies.push(arrivedAt, arrivedAt - sentAt, tab.gateway);
        } else if (name === 'snapshot') {
          const s = (JSON.parse(frame.slice(2)) as [string, LiveSnapshot])[1];
          tab.snapshots++;
          if (!tab.last || s.version >= tab.last.version) tab.last = s;
        }
      },
      onConnect() {
        tab.socket.emit('subscribe', ['announcements']);
        if (!opened) {
          opened = true;
          resolveOpen(tab);
        }
      },
      onDisconnect() {
        if (armed) tab.lost = true;
      },
      onConnectError(data) {
        const code = data?.code;
        if (!code) {
          if (gatewayUp) transportErrorsWhileUp++;
          return; // reconnected by the tab itself, as socket.io-client's manager does
        }
        refusals[code] = (refusals[code] ?? 0) + 1;
        // A 503 names its pause (the gateway's backlog), which the console waits at least.
        const pause = Math.max(1000, (data?.retryAfter ?? 0) * 1000);
        if (code !== 401) setTimeout(() => tab.socket.connect(), pause + Math.random() * 1000);
      },
    }),
    snapshots: 0,
    last: null,
    lost: false,
    gateway: -1,
  };
  return new Promise<Tab>((resolve, reject) => {
    const timer = setTimeout(() => {
      tab.socket.disconnect();
      reject(new Error('no connection within 60 s'));
    }, 60_000);
    resolveOpen = (t) => {
      clearTimeout(timer);
      resolve(t);
    };
    tab.socket.connect();
  });
}

const counters = (s: LiveSnapshot | null) => JSON.stringify({ ...s, version: 0 });

type Message =
  | { type: 'open'; url: string; tokens: string[]; addresses?: string[]; tabsPerPerson: number }
  | { type: 'collect' | 'close' | 'arm' | 'restarted' }
  | { type: 'routes'; routes: [string, number][] }
  | { type: 'back'; timeoutMs: number };

let before: { snapshots: number; counters: string }[] = [];

process.on('message', async (m: Message) => {
  if (m.type === 'open') {
    // In batches of 50; a tab that fails to open within 60 s is counted and the first reason
    // reported, so the bench never waits forever.
    const jobs = m.tokens.flatMap((token, p) =>
      Array.from({ length: m.tabsPerPerson }, () => ({ token, address: m.addresses?.[p] })),
    );
    let failed = 0;
    let firstError = '';
    for (let i = 0; i < jobs.length; i += 50) {
      const results = await Promise.allSettled(
        jobs.slice(i, i + 50).map((job) => openTab(m.url, job.token, job.address)),
      );
      for (const r of results) {
        if (r.status === 'fulfilled') tabs.push(r.value);
        else {
          failed++;
          firstError ||= String((r.reason as Error)?.message ?? r.reason);
        }
      }
    }
    process.send!({ type: 'opened', count: tabs.length, failed, firstError, refusals });
  } else if (m.type === 'arm') {
    // The gateway is about to be killed: what each tab shows now, to compare when it is back.
    before = tabs.map((t) => ({ snapshots: t.snapshots, counters: counters(t.last) }));
    for (const t of tabs) t.lost = false;
    armed = true;
    refusals = {};
    gatewayUp = false;
    process.send!({ type: 'armed' });
  } else if (m.type === 'restarted') {
    gatewayUp = true;
    transportErrorsWhileUp = 0;
    process.send!({ type: 'noted' });
  } else if (m.type === 'back') {
    // Until every tab is connected again and every tab that lost its connection has had a new
    // snapshot (or the time is up). With one gateway every tab lost it; with two, the survivor's
    // tabs that kept theirs count as back.
    const deadline = Date.now() + m.timeoutMs;
    const isBack = (t: Tab, i: number) => t.socket.connected && (!t.lost || t.snapshots > before[i].snapshots);
    let back = 0;
    while ((back = tabs.filter(isBack).length) < tabs.length && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    process.send!({
      type: 'back',
      at: now(),
      back,
      total: tabs.length,
      lost: tabs.filter((t) => t.lost).length,
      countersChanged: tabs.filter((t, i) => isBack(t, i) && counters(t.last) !== before[i].counters).length,
      refusals,
      transportErrorsWhileUp,
    });
  } else if (m.type === 'routes') {
    // Which gateway each tab is on (from its balancer's relayed connections, keyed by the tab's own end).
    const byEnd = new Map(m.routes);
    let known = 0;
    for (const t of tabs) {
      t.gateway = byEnd.get(t.socket.localEnd()) ?? -1;
      if (t.gateway >= 0) known++;
    }
    process.send!({ type: 'routed', known, total: tabs.length });
  } else if (m.type === 'collect') {
    // The histogram holds the whole interval between two of its 10 ms timers: the lag is what exceeds 10 ms.
    const ms = (ns: number) => Math.max(0, Math.round((ns - 10e6) / 1e4) / 100);
    process.send!({
      type: 'latencies',
      values: latencies,
      loopDelay: {
        p50: ms(loopDelay.percentile(50)),
        p99: ms(loopDelay.percentile(99)),
        max: ms(loopDelay.max),
      },
    });
    latencies = [];
    loopDelay.reset();
  } else if (m.type === 'close') {
    for (const t of tabs) t.socket.disconnect();
    process.send!({ type: 'closed' });
    process.disconnect();
  }
});
