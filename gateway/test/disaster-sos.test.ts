// Issue 21 "an SOS is never lost between the api and a screen". The console's design: on every
// snapshot (a tab's connect or reconnect, and the reconciliation after the gateway's upstream
// reconnects) it reads GET /disaster/sos/open and merges it with the live pushes by id
// (client/src/modules/disaster/states/sosAlarms.ts, unit-tested there). Here, through a real
// gateway and api: what a tab gets after an upstream reconnect, and what a wall screen that was
// offline finds when it comes back.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayHandle } from '../src/server';
import {
  call,
  callSos,
  openTab,
  residentOf,
  signIn,
  startRealApi,
  startTestGateway,
  waitFor,
  waitForTopic,
  type Tab,
} from './kit';

interface SosCall {
  id: number;
  state: 'open' | 'acknowledged' | 'closed';
  position: string | null;
}

let api: Awaited<ReturnType<typeof startRealApi>>;
let gateway: GatewayHandle | null = null;
let tabs: Tab[] = [];
let admin: { token: string; personId: number };

beforeAll(async () => {
  api = await startRealApi();
  admin = await signIn(api.url, 'admin');
});
afterAll(async () => api?.cleanup());
afterEach(async () => {
  for (const t of tabs) t.close();
  tabs = [];
  await gateway?.close();
  gateway = null;
  await waitFor(() => api.realtime.connectionCount() === 0);
});

/** The open calls as a console reads them: through the gateway. */
const openCalls = () => call<SosCall[]>(`${gateway!.url}/api`, admin.token, 'GET', '/disaster/sos/open');

describe('SOS calls reach a screen that was away', () => {
  it('when the upstream drops while residents call SOS, then the tab gets the missed calls as events and the open list it reads on the new snapshot holds them', async () => {
    gateway = await startTestGateway(api, { reconnectDelayMs: 1_000 });
    const resident = await residentOf(api.url, 'resident1');
    const tab = await openTab(gateway.url, admin.token);
    tabs.push(tab);
    await waitFor(() => api.realtime.connectionCount(admin.personId) === 1);
    await tab.subscribe(['alarms']);
    const first = await waitFor(() => tab.snapshots[0]);

    api.realtime.terminate(admin.personId);
    await waitFor(() => api.realtime.connectionCount(admin.personId) === 0);
    const missed = [await callSos(api.url, resident), await callSos(api.url, resident)];
    // One of them acknowledged by someone else meanwhile.
    await call(api.url, admin.token, 'POST', `/disaster/sos/${missed[0]}/acknowledge`);

    for (const id of missed) await waitForTopic(tab, 'alarms', (e) => e.kind === 'sos' && e.dataId === id, 20_000);
    await waitForTopic(tab, 'alarms', (e) => e.kind === 'sosUpdate' && e.dataId === missed[0], 20_000);
    const reconciled = await waitFor(() => tab.snapshots.find((s) => s.version > first.version), 20_000);
    expect(reconciled).toBeTruthy();

    const list = await openCalls();
    const ids = list.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(missed));
    expect(list.find((c) => c.id === missed[0])?.state).toBe('acknowledged');
    expect(list.find((c) => c.id === missed[1])?.state).toBe('open');
    // Unacknowledged first.
    const firstAcknowledged = list.findIndex((c) => c.state !== 'open');
    expect(list.slice(firstAcknowledged).every((c) => c.state !== 'open')).toBe(true);
    expect(ids.indexOf(missed[1])).toBeLessThan(ids.indexOf(missed[0]));
  });

  it('when a wall screen was offline while calls came, then on coming back its snapshot and the open list show every unacknowledged call', async () => {
    gateway = await startTestGateway(api);
    const resident = await residentOf(api.url, 'resident2');
    const calls = [await callSos(api.url, resident), await callSos(api.url, resident)];
    const screen = await openTab(gateway.url, admin.token);
    tabs.push(screen);
    await screen.subscribe(['alarms']);
    const snapshot = await waitFor(() => screen.snapshots[0]);
    // The alarm bell's count includes them (unread alarm messages, type 7).
    expect(snapshot.unreadByType['7']).toBeGreaterThanOrEqual(calls.length);
    const open = (await openCalls()).filter((c) => c.state === 'open').map((c) => c.id);
    expect(open).toEqual(expect.arrayContaining(calls));
  });
});
