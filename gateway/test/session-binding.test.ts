// Issue 14 item 4: every tab is bound to its own token. A signed-out token's tab is not recovered
// and gets nothing more; a tab is told and dropped when its own token expires or is revoked at the
// api, even while the person's upstream lives on another token. Real api, gateway and tabs.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayHandle, GatewayOptions } from '../src/server';
import {
  dropConnection,
  fileComplaint,
  login,
  metric,
  openTab,
  signIn,
  reportsOf,
  residentOf,
  settle,
  startRealApi,
  startTestGateway,
  waitFor,
  type Tab,
} from './kit';

/** Short enough to expire within a test, long enough for a tab to connect on a busy machine. */
const TTL_SECONDS = 10;

let api: Awaited<ReturnType<typeof startRealApi>>;
let adminPersonId: number;
let gateway: GatewayHandle | null = null;
let tabs: Tab[] = [];

beforeAll(async () => {
  api = await startRealApi({ tokenTtlSeconds: TTL_SECONDS });
  adminPersonId = (await signIn(api.url, 'admin')).personId;
});

afterAll(async () => {
  await api?.cleanup();
});

afterEach(async () => {
  for (const t of tabs) t.close();
  tabs = [];
  await gateway?.close();
  gateway = null;
  await waitFor(() => api.realtime.connectionCount() === 0);
});

async function start(options: Partial<GatewayOptions> = {}): Promise<GatewayHandle> {
  gateway = await startTestGateway(api, { reconnectDelayMs: 300, ...options });
  return gateway;
}

async function tabWith(token: string, options: { reconnection?: boolean } = {}): Promise<Tab> {
  const tab = await openTab(gateway!.url, token, options);
  tabs.push(tab);
  await waitFor(() => tab.snapshots[0]);
  await tab.subscribe(['announcements', 'workorders']);
  return tab;
}

const announcements = (tab: Tab) => tab.events.filter((e) => e.topic === 'announcements').map((e) => e.dataId);
const signOutAtApi = (token: string) =>
  fetch(`${api.url}/auth/signOut`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });

describe('a tab is bound to its own token', () => {
  it('when a tab is away while its token is signed out, then coming back is refused and it receives nothing more', async () => {
    await start();
    // The person's other tab holds the upstream, so events keep flowing for the person.
    const keptTab = await tabWith(await login(api.url, 'admin', 'admin123'));
    const leaving = await login(api.url, 'admin', 'admin123');
    const tab = await tabWith(leaving, { reconnection: true });

    tab.socket.io.reconnection(false);
    dropConnection(tab);
    await waitFor(async () => (await metric(gateway!.url, 'gateway_client_sockets')) === 1);
    // Signed out at the api itself: the gateway is not told; it must ask.
    expect((await signOutAtApi(leaving)).status).toBe(200);
    await api.realtime.publish([adminPersonId], { channelType: 9, dataId: 4101 });
    await waitFor(() => announcements(keptTab).includes(4101));

    const refused = new Promise<Error>((resolve) => tab.socket.once('connect_error', resolve));
    tab.socket.connect();
    expect((await refused).message).toBe('Your session has expired, please sign in again');
    await api.realtime.publish([adminPersonId], { channelType: 9, dataId: 4102 });
    await waitFor(() => announcements(keptTab).includes(4102));
    await settle();
    expect(tab.socket.connected).toBe(false);
    expect(announcements(tab)).toEqual([]);
    expect(tab.socket.recovered).toBe(false);
  }, 60_000);

  it("when a tab's own token expires while another token of the person holds the upstream, then that tab is told and dropped and the other keeps receiving", async () => {
    await start();
    const expiring = await login(api.url, 'admin', 'admin123');
    // The second token is issued later, so it expires later; its tab opens first and holds the upstream.
    await new Promise((r) => setTimeout(r, 4_000));
    const fresh = await login(api.url, 'admin', 'admin123');
    const freshTab = await tabWith(fresh);
    await waitFor(() => api.realtime.connectionCount(adminPersonId) === 1);
    const expiringTab = await tabWith(expiring);
    const dropped = new Promise<string>((resolve) => expiringTab.socket.once('disconnect', resolve));

    const told = await waitFor(() => expiringTab.events.find((e) => e.topic === 'session'), 20_000);
    expect(told).toMatchObject({ topic: 'session', kind: 'expired' });
    expect(await dropped).toBe('io server disconnect');
    await api.realtime.publish([adminPersonId], { channelType: 9, dataId: 4201 });
    await waitFor(() => announcements(freshTab).includes(4201));
    await settle();
    expect(announcements(expiringTab)).toEqual([]);
    expect(freshTab.socket.connected).toBe(true);
    // A new handshake with the expired token is refused.
    const again = await openTab(gateway!.url, expiring).then(
      () => 'connected',
      (e: Error) => e.message,
    );
    expect(again).toBe('Your session has expired, please sign in again');
  }, 60_000);

  it("when the upstream's token expires while another tab has a fresh one, then the upstream moves to it and no event is lost", async () => {
    await start();
    const expiring = await login(api.url, 'admin', 'admin123');
    const expiringTab = await tabWith(expiring);
    await waitFor(() => api.realtime.connectionCount(adminPersonId) === 1);
    await new Promise((r) => setTimeout(r, 4_000));
    const freshTab = await tabWith(await login(api.url, 'admin', 'admin123'));

    // A resident reports every 200 ms across the expiry of the upstream's token, and five times after it.
    const reporter = await residentOf(api.url, 'resident1');
    const sent: string[] = [];
    for (let i = 0, after = 0; after < 5 && i < 100; i++) {
      sent.push(`workorders:${await fileComplaint(api.url, reporter)}`);
      if (expiringTab.events.some((e) => e.topic === 'session')) after++;
      await new Promise((r) => setTimeout(r, 200));
    }
    await waitFor(() => reportsOf(freshTab).length >= sent.length, 20_000);
    expect(reportsOf(freshTab)).toEqual(sent);
    expect(expiringTab.socket.connected).toBe(false);
    expect(api.realtime.connectionCount(adminPersonId)).toBe(1);
  }, 60_000);

  it("when a tab's token is revoked at the api while the tab stays connected, then the periodic check tells it and drops it", async () => {
    await start({ tokenCheckMs: 300 });
    const keptTab = await tabWith(await login(api.url, 'admin', 'admin123'));
    const revoked = await login(api.url, 'admin', 'admin123');
    const tab = await tabWith(revoked);

    expect((await signOutAtApi(revoked)).status).toBe(200);
    const told = await waitFor(() => tab.events.find((e) => e.topic === 'session'));
    expect(told.kind).toBe('forcedLogout');
    await waitFor(() => !tab.socket.connected);
    await api.realtime.publish([adminPersonId], { channelType: 9, dataId: 4401 });
    await waitFor(() => announcements(keptTab).includes(4401));
    await settle();
    expect(announcements(tab)).toEqual([]);
  });
});
