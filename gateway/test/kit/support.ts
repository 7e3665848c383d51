// Helpers for the gateway's integration tests: a REAL api in-process, real logins, real tabs.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { io, type Socket } from 'socket.io-client';
import {
  applyEvent,
  emptySnapshot,
  type ClientToServerEvents,
  type LiveEvent,
  type LiveSnapshot,
  type ServerToClientEvents,
  type StatusTotals,
  type SubscribeAck,
  type Topic,
} from '@pm/shared';

const root = resolve(import.meta.dirname, '../../..');

/** The test handle of the api (docs/internal-contract.md, "Test handle of the api"). */
export interface ApiHandle {
  url: string;
  port: number;
  realtime: {
    publish(personIds: number[], message: Record<string, unknown>): void | Promise<void>;
    connectionCount(personId?: number): number;
    terminate(personId: number): void;
  };
  close(): Promise<void>;
}

/**
 * Starts the real api (api/src/server.ts) on port 0 with an embedded database and demo data.
 * The module is loaded by path so the gateway compiles on its own.
 */
export async function startRealApi(
  options: { tokenTtlSeconds?: number; oauthClientSecret?: string } = {},
): Promise<ApiHandle & { cleanup(): Promise<void> }> {
  const modulePath = process.env.GATEWAY_TEST_API_MODULE ?? resolve(import.meta.dirname, '../../../api/src/server.ts');
  const mod = (await import(/* @vite-ignore */ pathToFileURL(modulePath).href)) as {
    startApi(options: {
      port?: number;
      seed?: boolean;
      dataDir?: string;
      logLevel?: string;
      tokenTtlSeconds?: number;
      oauthClientSecret?: string;
      loadDataDir?: Blob;
    }): Promise<ApiHandle>;
  };
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-test-api-'));
  // The embedded database starts from the run's migrated and seeded template, loaded into the
  // data directory (api/test/kit/db-template.ts): the demo is there already, 15-20 s sooner.
  const loadDataDir = process.env.GATEWAY_TEST_API_MODULE ? undefined : await apiTemplate();
  const api = await mod.startApi({ port: 0, seed: true, dataDir, logLevel: 'silent', loadDataDir, ...options });
  return {
    ...api,
    async cleanup() {
      await api.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The api's PGlite template of this run (null outside a run that provides one). */
async function apiTemplate(): Promise<Blob | undefined> {
  const kit = (await import(
    /* @vite-ignore */ pathToFileURL(resolve(import.meta.dirname, '../../../api/test/kit/db-template.ts')).href
  )) as { templateDir(): Promise<string | null>; pgliteTemplate(dir: string): Promise<Blob> };
  const dir = await kit.templateDir();
  return dir ? kit.pgliteTemplate(dir) : undefined;
}

/** POST /oauth/token with the console's client credentials; returns the bearer token. */
export async function login(baseUrl: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('console:console-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!res.ok || !body.access_token) throw new Error(`login ${username} failed: ${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

export async function personIdOf(baseUrl: string, token: string): Promise<number> {
  const res = await fetch(`${baseUrl}/auth/current/user`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { data: { accountInfo: { personId: number } } };
  return body.data.accountInfo.personId;
}

export type TabClient = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A console tab: its socket, every event and snapshot it received, and helpers to wait for them. */
export interface Tab {
  socket: TabClient;
  events: LiveEvent[];
  /** Date.now() at the arrival of each of `events`. */
  arrivals: number[];
  snapshots: LiveSnapshot[];
  /** The counters the console shows, computed as client/src/modules/live/states/liveState.ts does. */
  counters(): LiveSnapshot;
  subscribe(topics: Topic[]): Promise<SubscribeAck>;
  nextSnapshot(after?: number): Promise<LiveSnapshot>;
  close(): void;
}

const TOPIC_NAMES: Topic[] = ['alarms', 'workorders', 'chat', 'residents', 'announcements', 'session', 'access'];

export async function openTab(
  gatewayUrl: string,
  token: string,
  options: { reconnection?: boolean; auth?: Record<string, unknown> } = {},
): Promise<Tab> {
  const socket: TabClient = io(gatewayUrl, {
    auth: { token, ...options.auth },
    transports: ['websocket'],
    reconnection: options.reconnection ?? false,
    reconnectionDelay: 100,
    reconnectionDelayMax: 200,
    forceNew: true,
  });
  const events: LiveEvent[] = [];
  const arrivals: number[] = [];
  const snapshots: LiveSnapshot[] = [];
  // What the console holds: a snapshot replaces it unless older, each event is applied to it.
  let held = emptySnapshot();
  socket.on('snapshot', (s) => {
    snapshots.push(s);
    if (s.version >= held.version) held = s;
  });
  for (const t of TOPIC_NAMES)
    socket.on(t, (e: LiveEvent) => {
      events.push(e);
      arrivals.push(Date.now());
      held = applyEvent(held, e);
    });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return {
    socket,
    events,
    arrivals,
    snapshots,
    counters: () => held,
    subscribe: (topics) => socket.timeout(5000).emitWithAck('subscribe', topics),
    nextSnapshot: (after = snapshots.length) => waitFor(() => snapshots[after]),
    close: () => socket.disconnect(),
  };
}

/** Polls until `probe` returns something other than undefined/false (real I/O is asynchronous). */
export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs} ms: ${probe.toString().slice(0, 200)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Lets in-flight messages land, for "nothing else arrived" assertions. */
export const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

/** One sample value from GET /metrics (summed over labels when `labels` is omitted). */
export async function metric(gatewayUrl: string, name: string, labels?: Record<string, string>): Promise<number> {
  const text = await (await fetch(`${gatewayUrl}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = line.match(/^([a-z_]+)(\{[^}]*\})?\s+([\d.eE+-]+)$/);
    if (!m || m[1] !== name) continue;
    if (labels && !Object.entries(labels).every(([k, v]) => (m[2] ?? '').includes(`${k}="${v}"`))) continue;
    sum += Number(m[3]);
  }
  return sum;
}

/**
 * Drops a tab's connection the way a network blip does (the transport closes, the socket.io
 * session survives); with `reconnectTo` the tab comes back through another gateway instance.
 */
export function dropConnection(tab: Tab, reconnectTo?: string): void {
  if (reconnectTo) (tab.socket.io as unknown as { uri: string }).uri = reconnectTo;
  tab.socket.io.engine.close();
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  return port;
}

/** The api as its own process (`api/src/main.ts`) on a fixed port, so it can be killed and started again. */
export interface ApiProcess {
  url: string;
  /** Starts it and waits until /health answers. */
  start(): Promise<void>;
  /** kill -9: no shutdown code runs. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** SIGSTOP: the process keeps its port (connections are accepted) and answers nothing. */
  freeze(): void;
  /** SIGCONT after freeze(). */
  thaw(): void;
}

export async function apiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const exited = (c: ChildProcess) =>
    c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise((r) => c.once('exit', r));
  const signal = async (sig: NodeJS.Signals) => {
    const c = child;
    child = null;
    if (!c) return;
    const done = exited(c);
    c.kill(sig);
    await done;
  };
  return {
    url,
    async start() {
      // `node --import tsx` (not the tsx CLI, which forks) so the pid we kill is the api itself.
      const c = spawn(process.execPath, ['--import', 'tsx', join(root, 'api/src/main.ts')], {
        cwd: root,
        env: { ...process.env, API_PORT: String(port), API_HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      child = c;
      for (let i = 0; i < 1200; i++) {
        if (c.exitCode !== null) throw new Error(`api process exited with ${c.exitCode}`);
        const ok = await fetch(`${url}/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('api process did not become healthy');
    },
    kill: () => signal('SIGKILL'),
    stop: () => {
      // A frozen process is let go on first (a stopped process does not act on SIGTERM).
      child?.kill('SIGCONT');
      return signal('SIGTERM');
    },
    freeze: () => void child?.kill('SIGSTOP'),
    thaw: () => void child?.kill('SIGCONT'),
  };
}

/** A JSON call with a bearer token; answers the envelope's data (throws unless 200). */
export async function call<T>(baseUrl: string, token: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const envelope = (await res.json()) as { code: number; data: T };
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  return envelope.data;
}

/** A resident of the demo estate with a house to report from. */
export interface Resident {
  token: string;
  house: { houseType: number; houseId: number };
}

export async function residentOf(apiUrl: string, username: string): Promise<Resident> {
  const token = await login(apiUrl, username, 'resident123');
  const houses = await call<Resident['house'][]>(apiUrl, token, 'GET', '/app/house/list');
  return { token, house: houses[0] };
}

/** A real change that pushes to the estate's staff (workorders topic); answers the complaint's id. */
export async function fileComplaint(apiUrl: string, r: Resident, name = 'The lift is stuck'): Promise<number> {
  const data = await call<{ complainId: number }>(apiUrl, r.token, 'POST', '/app/complain/save', {
    name,
    note: 'Between the third and fourth floor',
    houseType: r.house.houseType,
    houseId: r.house.houseId,
  });
  return data.complainId;
}

/** A real SOS help call (alarms topic, kind sos); answers its id. */
export async function callSos(apiUrl: string, r: Resident): Promise<number> {
  const data = await call<{ sosHelpId: number }>(apiUrl, r.token, 'POST', '/app/sos/help', {
    houseType: r.house.houseType,
    houseId: r.house.houseId,
    position: 'Lobby',
  });
  return data.sosHelpId;
}

/** New complaints and SOS calls a tab received, as `topic:id`, in arrival order. */
export function reportsOf(tab: Tab): string[] {
  return tab.events
    .filter((e) => (e.topic === 'alarms' && e.kind === 'sos') || (e.topic === 'workorders' && e.action === 'new'))
    .map((e) => `${e.topic}:${e.dataId}`);
}

/** The complaint totals and unread "new complaint" messages (type 50): what the api says now. */
export async function complaintCounters(apiUrl: string, token: string): Promise<ComplaintCounters> {
  const [complaints, unread] = await Promise.all([
    call<StatusTotals>(apiUrl, token, 'POST', '/complain/query/getComplainStatusTotalVo', {}),
    call<{ byType: Record<string, number> }>(apiUrl, token, 'POST', '/base/message/unRead', { messageTypeList: [50] }),
  ]);
  return { complaints, unread50: unread.byType['50'] ?? 0 };
}

/** The same counters as the tab shows them. */
export function shownComplaintCounters(tab: Tab): ComplaintCounters {
  const c = tab.counters();
  return { complaints: c.complaints, unread50: c.unreadByType['50'] ?? 0 };
}

export interface ComplaintCounters {
  complaints: StatusTotals;
  unread50: number;
}
