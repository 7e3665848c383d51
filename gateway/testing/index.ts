// The tester's way in (issue 33): `import { startTestProduct } from '@pm/gateway/testing'`. The
// product as a test drives it from outside: the real api on an embedded database (PGlite, in
// memory) with the demo estate, and the real gateway in front of it, both in this process on free
// ports; the demo accounts; a signed-in helper (REST through the gateway with supertest or fetch)
// and console tabs on socket.io (the gateway's public protocol, DESIGN §3); one call stops it all.
// README "Testing with supertest" shows it; gateway/test/testing-with-supertest.test.ts runs that
// example. Not part of the gateway image (only gateway/src is).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { io, type Socket } from 'socket.io-client';
import {
  allowedTopics,
  TOPICS,
  type ClientToServerEvents,
  type LiveEvent,
  type LiveSnapshot,
  type ServerToClientEvents,
  type Topic,
} from '@pm/shared';
import { startGateway, type GatewayHandle, type GatewayOptions } from '../src/server';

/** The demo accounts of the seed (README "Demo accounts"). */
export const DEMO_ACCOUNTS = {
  admin: { username: 'admin', password: 'admin123' },
  staff: { username: 'staff', password: 'staff123' },
  admin2: { username: 'admin2', password: 'admin123' },
  wall: { username: 'wall', password: 'wall123' },
  resident1: { username: 'resident1', password: 'resident123' },
  resident2: { username: 'resident2', password: 'resident123' },
  resident3: { username: 'resident3', password: 'resident123' },
  resident4: { username: 'resident4', password: 'resident123' },
  resident5: { username: 'resident5', password: 'resident123' },
} as const;
export type DemoAccount = keyof typeof DEMO_ACCOUNTS;

/** A signed-in person: the bearer token and who it is. `headers` go on every call (`.set(headers)`). */
export interface TestSession {
  username: string;
  token: string;
  personId: number;
  accId: number;
  /** `Authorization: Bearer …`, for supertest's `.set()` or fetch. */
  headers: { Authorization: string };
  /** The permission codes the gateway lets this person's tabs subscribe with (from the api). */
  perms: string[];
}

/** A console tab on socket.io: every live event and snapshot it received, and waits for more. */
export interface TestTab {
  socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  /** The topics the gateway accepted for this person. */
  topics: Topic[];
  events: LiveEvent[];
  snapshots: LiveSnapshot[];
  /** Resolves with the first event of `topic` (received already or later) that passes `match`. */
  next<T extends Topic>(
    topic: T,
    match?: (e: Extract<LiveEvent, { topic: T }>) => boolean,
    timeoutMs?: number,
  ): Promise<Extract<LiveEvent, { topic: T }>>;
  close(): void;
}

export interface TestProduct {
  /** The gateway, as browsers and testers reach the product: REST under `/api`, socket.io, `/health`. */
  url: string;
  /** The api itself (loopback; the gateway is the way in). */
  apiUrl: string;
  accounts: typeof DEMO_ACCOUNTS;
  /** Signs in through the gateway (`POST /api/oauth/token`; the gateway adds the console's client credentials). */
  signIn(account: DemoAccount | { username: string; password: string }): Promise<TestSession>;
  /** Opens a console tab for the session and subscribes it to `topics` (default: all it may have). */
  openTab(session: TestSession, topics?: Topic[]): Promise<TestTab>;
  /** Closes the tabs, the gateway and the api, and removes their files. */
  stop(): Promise<void>;
}

export interface TestProductOptions {
  /** Options of the api (api/src/server.ts `startApi`), e.g. `{ sosReannounceMs: 1000 }`. */
  api?: Record<string, unknown>;
  /** Options of the gateway (gateway/src/server.ts `startGateway`). */
  gateway?: Partial<GatewayOptions>;
  /** Log level of both tiers (default 'silent'). */
  logLevel?: string;
}

interface ApiHandle {
  url: string;
  close(): Promise<void>;
}

const repoRoot = resolve(import.meta.dirname, '..', '..');

/** Polls `probe` until it answers something (real I/O is asynchronous). */
async function until<T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The api options leave the database to the default: the demo seeded, in memory, none given. */
function usesDefaultDatabase(api: Record<string, unknown> = {}): boolean {
  return api.seed !== false && !api.databaseUrl && !api.dataDir && !api.loadDataDir;
}

/**
 * The PGlite template of this repository's api and gateway test run (api/test/kit/db-template.ts,
 * README "Test run: templates and workers"), or undefined anywhere else (a tester's own run).
 */
async function runTemplate(): Promise<Blob | undefined> {
  const kitFile = join(repoRoot, 'api', 'test', 'kit', 'db-template.ts');
  if (!process.env.VITEST || !existsSync(kitFile)) return undefined;
  const kit = (await import(pathToFileURL(kitFile).href)) as {
    templateDir(): Promise<string | null>;
    pgliteTemplate(dir: string): Promise<Blob>;
  };
  const dir = await kit.templateDir();
  return dir ? kit.pgliteTemplate(dir) : undefined;
}

/**
 * Starts the product for a test: the api on an embedded database seeded with the demo estate and
 * the gateway in front of it, in this process, on free ports. Seeding the demo takes most of the
 * start (45 s on a busy 2-core machine): start it once per test file (`beforeAll`, with a long
 * timeout) and stop it after (`afterAll`).
 */
export async function startTestProduct(options: TestProductOptions = {}): Promise<TestProduct> {
  const logLevel = options.logLevel ?? 'silent';
  const files = mkdtempSync(join(tmpdir(), 'pm-test-product-'));
  // The api is loaded by path: the gateway package compiles and installs without it.
  const server = (await import(pathToFileURL(join(repoRoot, 'api', 'src', 'server.ts')).href)) as {
    startApi(options: Record<string, unknown>): Promise<ApiHandle>;
  };
  // Inside this repository's own test run, the default start copies the run's migrated and seeded
  // template (api/test/kit/db-template.ts) instead of migrating and seeding (15-20 s on PGlite).
  const api = await server.startApi({
    port: 0,
    seed: true,
    uploadDir: join(files, 'uploads'),
    logLevel,
    ...(usesDefaultDatabase(options.api) && { loadDataDir: await runTemplate() }),
    ...options.api,
  });
  let gateway: GatewayHandle;
  try {
    const clientDist = join(repoRoot, 'client', 'dist');
    gateway = await startGateway({
      port: 0,
      host: '127.0.0.1',
      apiUrl: api.url,
      logLevel,
      metricsPort: null,
      ...(existsSync(clientDist) && { clientDist }),
      ...options.gateway,
    });
  } catch (err) {
    await api.close();
    rmSync(files, { recursive: true, force: true });
    throw err;
  }
  const { url } = gateway;
  const tabs: TestTab[] = [];

  const call = async <T>(path: string, token: string): Promise<T> => {
    const res = await fetch(`${url}/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { data: T };
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(body)}`);
    return body.data;
  };

  return {
    url,
    apiUrl: api.url,
    accounts: DEMO_ACCOUNTS,
    async signIn(account) {
      const { username, password } = typeof account === 'string' ? DEMO_ACCOUNTS[account] : account;
      const res = await fetch(`${url}/api/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'password', username, password }),
      });
      const body = (await res.json()) as { access_token?: string };
      if (!res.ok || !body.access_token) throw new Error(`sign-in of ${username} answered ${res.status}`);
      const token = body.access_token;
      const me = await call<{ accountInfo: { personId: number; accId: number } }>('/auth/current/user', token);
      const identity = await call<{ perms: string[] }>('/realtime/identity', token);
      return {
        username,
        token,
        personId: me.accountInfo.personId,
        accId: me.accountInfo.accId,
        headers: { Authorization: `Bearer ${token}` },
        perms: identity.perms,
      };
    },
    async openTab(session, topics = allowedTopics(new Set(session.perms))) {
      const socket: TestTab['socket'] = io(url, {
        auth: { token: session.token },
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
      });
      const events: LiveEvent[] = [];
      const snapshots: LiveSnapshot[] = [];
      socket.on('snapshot', (s) => snapshots.push(s));
      for (const topic of TOPICS) socket.on(topic, (e: LiveEvent) => events.push(e));
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const ack = await socket.timeout(5000).emitWithAck('subscribe', topics);
      const tab: TestTab = {
        socket,
        topics: ack.topics,
        events,
        snapshots,
        next: (topic, match = () => true, timeoutMs = 10_000) =>
          until(
            () =>
              events.find(
                (e): e is Extract<LiveEvent, { topic: typeof topic }> => e.topic === topic && match(e as never),
              ),
            timeoutMs,
            `${topic} event`,
          ),
        close: () => socket.disconnect(),
      };
      tabs.push(tab);
      return tab;
    },
    async stop() {
      for (const tab of tabs) tab.close();
      await gateway.close();
      await api.close();
      rmSync(files, { recursive: true, force: true });
    },
  };
}
