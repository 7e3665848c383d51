import { io, Manager } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../src/locale-messages';
import type { GatewayHandle, GatewayOptions } from '../src/server';
import type { RefusedAck } from '../src/tab-limits';
import { metric, openTab, signIn, startRealApi, startTestGateway, waitFor, type Tab, type TabClient } from './kit';

let api: Awaited<ReturnType<typeof startRealApi>>;
let gateway: GatewayHandle | null = null;
let tabs: Tab[] = [];
let managers: Manager[] = [];
let admin: { token: string; personId: number };
let staff: { token: string; personId: number };

beforeAll(async () => {
  api = await startRealApi();
  admin = await signIn(api.url, 'admin');
  staff = await signIn(api.url, 'staff');
});

afterAll(async () => {
  await api?.cleanup();
});

afterEach(async () => {
  for (const t of tabs) t.close();
  tabs = [];
  for (const m of managers) m.engine?.close();
  managers = [];
  await gateway?.close();
  gateway = null;
  await waitFor(() => api.realtime.connectionCount() === 0);
});

async function start(options: Partial<GatewayOptions>): Promise<GatewayHandle> {
  gateway = await startTestGateway(api, options);
  return gateway;
}

async function open(token: string): Promise<Tab> {
  const tab = await openTab(gateway!.url, token);
  tabs.push(tab);
  return tab;
}

/** A handshake expected to be refused: the `connect_error` it gets. */
async function refusedHandshake(token: string, lang: string): Promise<{ message: string; data: unknown }> {
  const socket: TabClient = io(gateway!.url, {
    auth: { token, lang },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  try {
    return await new Promise((resolve, reject) => {
      socket.once('connect', () => reject(new Error('the handshake was accepted')));
      socket.once('connect_error', (err: Error & { data?: unknown }) =>
        resolve({ message: err.message, data: err.data }),
      );
    });
  } finally {
    socket.disconnect();
  }
}

/** An open engine.io connection that never joins as a tab (a client stuck before signing in). */
async function bareConnection(): Promise<Manager> {
  const manager = new Manager(gateway!.url, { transports: ['websocket'], reconnection: false, autoConnect: false });
  managers.push(manager);
  await new Promise<void>((resolve, reject) => manager.open((err) => (err ? reject(err) : resolve())));
  return manager;
}

describe('tabs per person', () => {
  it('when a person opens one tab more than allowed, then it is refused with a translated 429 and another person is not', async () => {
    await start({ tabLimits: { tabsPerPerson: 3 } });
    for (let i = 0; i < 3; i++) await open(staff.token);

    const refused = await refusedHandshake(staff.token, 'zh-CN');
    expect(refused.data).toEqual({ code: 429 });
    expect(refused.message).toBe(translate('zh-CN', 'errors.tooManyTabs').replace('{{count}}', '3'));
    expect(refused.message).toContain('3');
    expect(await metric(gateway!.url, 'gateway_tab_refusals_total', { reason: 'tabs' })).toBe(1);

    await open(admin.token);
    expect(await metric(gateway!.url, 'gateway_client_sockets')).toBe(4);

    // A closed tab frees its place.
    tabs[0].close();
    await waitFor(async () => (await metric(gateway!.url, 'gateway_client_sockets')) === 3);
    await open(staff.token);
  });
});

describe('connections per address that have not signed in', () => {
  it('when an address holds more unauthenticated connections than allowed, then its next handshake gets a translated 429 until they close', async () => {
    await start({ tabLimits: { unauthenticatedPerAddress: 2 } });
    const stuck = [await bareConnection(), await bareConnection()];

    const refused = await refusedHandshake(staff.token, 'zh-TW');
    expect(refused.data).toEqual({ code: 429 });
    expect(refused.message).toBe(translate('zh-TW', 'errors.tooManyConnections'));
    expect(await metric(gateway!.url, 'gateway_tab_refusals_total', { reason: 'address' })).toBe(1);

    for (const m of stuck) m.engine.close();
    await waitFor(async () => {
      try {
        await open(staff.token);
        return true;
      } catch {
        return false;
      }
    });
  });
});

describe('events a tab sends', () => {
  it('when a tab floods subscribe, then the extra events are refused with a translated 429, the flood is disconnected and another person is served', async () => {
    await start({ tabLimits: { eventsPerSecond: 0.01, eventBurst: 3, refusalsBeforeDisconnect: 5 } });
    const flooder = await open(staff.token);
    const other = await open(admin.token);

    for (let i = 0; i < 3; i++) expect((await flooder.subscribe(['announcements'])).topics).toEqual(['announcements']);
    const refused = (await flooder.subscribe(['announcements'])) as RefusedAck;
    expect(refused.topics).toEqual([]);
    expect(refused.error).toEqual({ code: 429, msg: translate('en', 'errors.tooManyEvents') });

    const disconnected = new Promise<string>((resolve) => flooder.socket.once('disconnect', resolve));
    for (let i = 0; i < 4; i++) flooder.socket.emit('unsubscribe', ['announcements'], () => undefined);
    expect(await disconnected).toBe('io server disconnect');
    expect(await metric(gateway!.url, 'gateway_tab_refusals_total', { reason: 'disconnected' })).toBe(1);

    expect((await other.subscribe(['announcements'])).topics).toEqual(['announcements']);
    await waitFor(() => api.realtime.connectionCount(admin.personId) === 1);
    await api.realtime.publish([admin.personId], { channelType: 9, dataId: 777 });
    const e = await waitFor(() => other.events.find((x) => x.topic === 'announcements'));
    expect(e.dataId).toBe(777);
  });
});
