// Issue 34: thousands of tabs coming back at once asked the api everything at once; lookups timed
// out and were answered 502, each making that person's five tabs retry. The gateway's own api calls
// now take turns (api-gate.ts): the tabs of one token share one identity lookup, a handshake waits
// for its turn, a full queue is answered 503 with a Retry-After (never 502), and a token revoked
// while its lookup is on its way opens no tab.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { createBenchStaff } from '../../api/bench/bench-staff';
import type { Db } from '../../api/src/db/open-database';
import type { GatewayHandle } from '../src/server';
import {
  metric,
  openTab,
  settle,
  slowApi,
  startRealApi,
  startTestGateway,
  waitFor,
  type SlowApi,
  type Tab,
} from './kit';

let api: Awaited<ReturnType<typeof startRealApi>>;
let staff: Awaited<ReturnType<typeof createBenchStaff>>;
const closers: (() => Promise<unknown> | void)[] = [];
const isIdentity = (path: string) => path.startsWith('/realtime/identity');

/** The refusal a handshake ended with (connect_error's data), or 'connected'. */
type Outcome = { code?: number; retryAfter?: number } | 'connected';
function outcome(pending: Promise<Tab>): Promise<Outcome> {
  return pending.then(
    (tab) => {
      closers.push(() => tab.close());
      return 'connected' as const;
    },
    (err: Error & { data?: { code?: number; retryAfter?: number } }) => err.data ?? {},
  );
}

async function gatewayBehind(
  slow: SlowApi,
  options: Parameters<typeof startTestGateway>[1] = {},
): Promise<GatewayHandle> {
  const gateway = await startTestGateway({ url: slow.url }, options);
  closers.push(() => gateway.close());
  return gateway;
}

async function slow(): Promise<SlowApi> {
  const s = await slowApi(api.url);
  closers.push(() => s.close());
  return s;
}

beforeAll(async () => {
  api = await startRealApi();
  staff = await createBenchStaff((api as unknown as { db: Db }).db, 6);
}, 120_000);

afterAll(async () => {
  for (const close of closers.reverse()) await Promise.resolve(close()).catch(() => undefined);
  await api.cleanup();
});

describe("the gateway's calls to the api take turns (issue 34)", () => {
  it('when 50 tabs of one person open at once, then the api is asked who the token is once and every tab opens', async () => {
    const s = await slow();
    const gateway = await gatewayBehind(s, { tabLimits: { tabsPerPerson: 100 } });
    s.hold(isIdentity);
    const pending = Array.from({ length: 50 }, () => outcome(openTab(gateway.url, staff[0].token)));
    // Every handshake is in, all waiting on the one lookup the api has answered (held on its way).
    await waitFor(() => s.held() === 1 && gateway.io.engine.clientsCount === 50, 60_000);
    s.release();
    expect(await Promise.all(pending)).toEqual(Array.from({ length: 50 }, () => 'connected'));
    expect(s.seen(isIdentity)).toBe(1);
  }, 120_000);

  it('when the queue of lookups is full, then the next tab is answered 503 with a Retry-After, never 502, and opens when it comes back', async () => {
    const s = await slow();
    const gateway = await gatewayBehind(s, { apiGate: { inFlight: 1, queued: 2, maxWaitMs: 120_000 } });
    s.hold(isIdentity);
    const first = outcome(openTab(gateway.url, staff[1].token));
    await waitFor(() => s.held() === 1, 60_000);
    const queued = [outcome(openTab(gateway.url, staff[2].token)), outcome(openTab(gateway.url, staff[3].token))];
    await waitFor(async () => (await metric(gateway.url, 'gateway_api_calls', { state: 'identity' })) === 2, 60_000);

    const refused = await outcome(openTab(gateway.url, staff[4].token));
    expect(refused).toMatchObject({ code: 503 });
    expect((refused as { retryAfter: number }).retryAfter).toBeGreaterThanOrEqual(1);

    s.release();
    expect(await Promise.all([first, ...queued])).toEqual(['connected', 'connected', 'connected']);
    // Told to come back: it does, and is let in.
    expect(await outcome(openTab(gateway.url, staff[4].token))).toBe('connected');
  }, 120_000);

  it('when a token is revoked while the lookup its tabs wait on is on its way, then none of those tabs opens', async () => {
    const s = await slow();
    const gateway = await gatewayBehind(s);
    const { token } = staff[5];
    const open = await openTab(gateway.url, token);
    closers.push(() => open.close());
    await waitFor(async () => (await metric(gateway.url, 'gateway_upstream_connections')) === 1, 60_000);
    // Past the age a handshake trusts (2 s): the next tabs make a lookup of their own.
    await settle(2_500);

    s.hold(isIdentity);
    const pending = Array.from({ length: 5 }, () => outcome(openTab(gateway.url, token)));
    // The api has answered "valid" (the answer is on its way, held) when the token is revoked…
    await waitFor(() => s.held() === 1, 60_000);
    const signedOut = await fetch(`${api.url}/auth/signOut`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(signedOut.status).toBe(200);
    // …and the gateway hears of it (the api closes the upstream of that token: its tab is dropped).
    await waitFor(() => !(open.socket as Socket).connected, 60_000);

    s.release();
    for (const result of await Promise.all(pending)) expect(result).toMatchObject({ code: 401 });
  }, 120_000);
});
