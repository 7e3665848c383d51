// Wall screens that run for months (issue 34): a wall screen's tab outlives many lifetimes of its
// token (the gateway asks the api before the expiry, the api renews the session while it is in
// use, and the tab, the api's upstream and the events follow), while a staff tab with the same
// TTL is told and dropped at expiry; an administrator ending the wall account's sessions closes
// the wall's tab at once. Real api, gateway and tabs.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayHandle } from '../src/server';
import {
  call,
  fileComplaint,
  login,
  openTab,
  reportsOf,
  residentOf,
  signIn,
  startRealApi,
  startTestGateway,
  waitFor,
  type Tab,
} from './kit';

/** Short enough for three lifetimes within a test, long enough for a tab to connect on a busy machine. */
const TTL_SECONDS = 8;
const WALL = { username: 'wall', password: 'wall123' };

let api: Awaited<ReturnType<typeof startRealApi>>;
let gateway: GatewayHandle;
let tabs: Tab[] = [];

beforeAll(async () => {
  api = await startRealApi({ tokenTtlSeconds: TTL_SECONDS });
  gateway = await startTestGateway(api, { reconnectDelayMs: 300 });
}, 180_000);

afterAll(async () => {
  await gateway?.close();
  await api?.cleanup();
});

afterEach(() => {
  for (const t of tabs) t.close();
  tabs = [];
});

async function tabWith(token: string): Promise<Tab> {
  const tab = await openTab(gateway.url, token);
  tabs.push(tab);
  await waitFor(() => tab.snapshots[0]);
  await tab.subscribe(['alarms', 'workorders']);
  return tab;
}

const sessionEvents = (tab: Tab) => tab.events.filter((e) => e.topic === 'session');

describe('a wall screen that runs for months', () => {
  it("when three lifetimes of the token pass, then the wall's tab is still live and receives events, while a staff tab of the same age was told and dropped", async () => {
    const wall = await signIn(`${gateway.url}/api`, WALL);
    const wallTab = await tabWith(wall.token);
    const staffTab = await tabWith(await login(`${gateway.url}/api`, 'admin', 'admin123'));

    await new Promise((r) => setTimeout(r, 3 * TTL_SECONDS * 1000));

    expect(sessionEvents(staffTab)).toMatchObject([{ kind: 'expired' }]);
    expect(staffTab.socket.connected).toBe(false);
    expect(sessionEvents(wallTab)).toEqual([]);
    expect(wallTab.socket.connected).toBe(true);
    // The upstream followed the renewed expiry: a resident's report still reaches the wall.
    const complaintId = await fileComplaint(api.url, await residentOf(api.url, 'resident1'));
    await waitFor(() => reportsOf(wallTab).includes(`workorders:${complaintId}`));
    // And its REST calls through the gateway are answered.
    await expect(call(`${gateway.url}/api`, wall.token, 'GET', '/wall/feed')).resolves.toBeTruthy();
  }, 90_000);

  it("when an administrator ends the wall account's sessions, then the wall's tab is told and dropped at once", async () => {
    const wall = await signIn(`${gateway.url}/api`, WALL);
    const wallTab = await tabWith(wall.token);
    const admin = await login(`${gateway.url}/api`, 'admin', 'admin123');
    const { accountInfo } = await call<{ accountInfo: { accId: number } }>(
      `${gateway.url}/api`,
      wall.token,
      'GET',
      '/auth/current/user',
    );
    await call(`${gateway.url}/api`, admin, 'POST', `/account/sessions/end/${accountInfo.accId}`);
    const told = await waitFor(() => sessionEvents(wallTab)[0]);
    expect(['forcedLogout', 'expired']).toContain(told.kind);
    await waitFor(() => !wallTab.socket.connected);
    await expect(call(`${gateway.url}/api`, wall.token, 'GET', '/wall/feed')).rejects.toThrow('answered 401');
  }, 30_000);
});
