// Helpers for the gateway's integration tests: a REAL api in-process, real logins, real tabs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { io, type Socket } from 'socket.io-client';
import type {
  ClientToServerEvents,
  LiveEvent,
  LiveSnapshot,
  ServerToClientEvents,
  SubscribeAck,
  Topic,
} from '@pm/shared';

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
  options: { oauthClientSecret?: string } = {},
): Promise<ApiHandle & { cleanup(): Promise<void> }> {
  const modulePath = process.env.GATEWAY_TEST_API_MODULE ?? resolve(import.meta.dirname, '../../api/src/server.ts');
  const mod = (await import(/* @vite-ignore */ pathToFileURL(modulePath).href)) as {
    startApi(options: {
      port?: number;
      seed?: boolean;
      dataDir?: string;
      logLevel?: string;
      oauthClientSecret?: string;
    }): Promise<ApiHandle>;
  };
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-test-api-'));
  const api = await mod.startApi({ port: 0, seed: true, dataDir, logLevel: 'silent', ...options });
  return {
    ...api,
    async cleanup() {
      await api.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
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
  snapshots: LiveSnapshot[];
  subscribe(topics: Topic[]): Promise<SubscribeAck>;
  nextSnapshot(after?: number): Promise<LiveSnapshot>;
  close(): void;
}

const TOPIC_NAMES: Topic[] = ['alarms', 'workorders', 'chat', 'residents', 'announcements', 'session'];

export async function openTab(
  gatewayUrl: string,
  token: string,
  options: { reconnection?: boolean } = {},
): Promise<Tab> {
  const socket: TabClient = io(gatewayUrl, {
    auth: { token },
    transports: ['websocket'],
    reconnection: options.reconnection ?? false,
    reconnectionDelay: 100,
    reconnectionDelayMax: 200,
    forceNew: true,
  });
  const events: LiveEvent[] = [];
  const snapshots: LiveSnapshot[] = [];
  socket.on('snapshot', (s) => snapshots.push(s));
  for (const t of TOPIC_NAMES) socket.on(t, (e: LiveEvent) => events.push(e));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return {
    socket,
    events,
    snapshots,
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
