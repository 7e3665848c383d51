import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyEvent, TOPICS, type LiveSnapshot } from '@pm/shared';
import type { GatewayHandle, GatewayOptions } from '../src/server';
import {
  callSos,
  dropConnection,
  fileComplaint,
  login,
  metric,
  openTab,
  reportsOf,
  residentOf,
  settle,
  signIn,
  startRealApi,
  startTestGateway,
  waitFor,
  type Tab,
} from './kit';

// One real api (embedded database, demo data) for the file; a fresh gateway and fresh tabs per test.
let api: Awaited<ReturnType<typeof startRealApi>>;
let gateway: GatewayHandle | null = null;
let tabs: Tab[] = [];
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
  await gateway?.close();
  gateway = null;
  // The api notices the closed upstreams asynchronously; the next test starts from zero.
  await waitFor(() => api.realtime.connectionCount() === 0);
});

async function start(options: Partial<GatewayOptions> = {}): Promise<GatewayHandle> {
  gateway = await startTestGateway(api, options);
  return gateway;
}

async function open(token: string, count = 1): Promise<Tab[]> {
  const opened = await Promise.all(Array.from({ length: count }, () => openTab(gateway!.url, token)));
  tabs.push(...opened);
  return opened;
}

/** Waits until the person's upstream is open on the api's side and the first snapshot reached every tab. */
async function ready(personId: number, personTabs: Tab[]): Promise<LiveSnapshot> {
  await waitFor(() => api.realtime.connectionCount(personId) === 1);
  const firsts = await Promise.all(personTabs.map((t) => waitFor(() => t.snapshots[0])));
  return firsts[0];
}

describe('one upstream per person, whatever the number of tabs', () => {
  it('when five tabs of one person and two of another connect, then exactly two upstream connections are open', async () => {
    await start();
    const adminTabs = await open(admin.token, 5);
    const staffTabs = await open(staff.token, 2);
    await ready(admin.personId, adminTabs);
    await ready(staff.personId, staffTabs);

    expect(api.realtime.connectionCount(admin.personId)).toBe(1);
    expect(api.realtime.connectionCount(staff.personId)).toBe(1);
    expect(api.realtime.connectionCount()).toBe(2);
    expect(await metric(gateway!.url, 'gateway_upstream_connections')).toBe(2);
    expect(await metric(gateway!.url, 'gateway_client_sockets')).toBe(7);
  });

  it("when the api pushes an event for one person, then all five of their tabs receive it and none of the other person's", async () => {
    await start();
    const adminTabs = await open(admin.token, 5);
    const staffTabs = await open(staff.token, 2);
    await ready(admin.personId, adminTabs);
    await ready(staff.personId, staffTabs);
    for (const t of [...adminTabs, ...staffTabs]) await t.subscribe(['announcements', 'workorders']);

    await api.realtime.publish([admin.personId], { channelType: 9, dataId: 4242, title: 'water cut' });

    for (const t of adminTabs) {
      const e = await waitFor(() => t.events.find((x) => x.topic === 'announcements'));
      expect(e).toMatchObject({
        topic: 'announcements',
        kind: 'announcement',
        channelType: 9,
        dataId: 4242,
        payload: { title: 'water cut' },
      });
    }
    await settle();
    for (const t of staffTabs) expect(t.events).toEqual([]);
    expect(await metric(gateway!.url, 'gateway_events_total', { topic: 'announcements' })).toBe(1);
    // The event is kept (outside the heap) for a tab that drops and comes back.
    expect(await metric(gateway!.url, 'gateway_recovery_log_bytes')).toBeGreaterThanOrEqual(1 << 20);
  });

  it('when the last tab reloads within the grace period, then the upstream is kept, not reopened', async () => {
    await start({ graceMs: 5_000 });
    const [first] = await open(admin.token);
    await ready(admin.personId, [first]);
    first.close();
    const [reloaded] = await open(admin.token);
    await waitFor(() => reloaded.snapshots[0]);

    expect(await metric(gateway!.url, 'gateway_upstream_opens_total')).toBe(1);
    expect(api.realtime.connectionCount(admin.personId)).toBe(1);
  });

  it('when the last tab leaves and the grace period passes, then the upstream is closed', async () => {
    await start({ graceMs: 200 });
    const [only] = await open(admin.token);
    await ready(admin.personId, [only]);
    only.close();

    await waitFor(() => api.realtime.connectionCount(admin.personId) === 0);
    expect(await metric(gateway!.url, 'gateway_upstream_connections')).toBe(0);
  });
});

describe('the socket.io protocol', () => {
  it('when a tab without disasterwarn:list subscribes to alarms, then alarms is refused and no alarm reaches it', async () => {
    await start();
    const [staffTab] = await open(staff.token);
    const [adminTab] = await open(admin.token);
    await ready(staff.personId, [staffTab]);
    await ready(admin.personId, [adminTab]);

    const refused = await staffTab.subscribe(['alarms', 'workorders']);
    expect(refused.refused).toContain('alarms');
    expect(refused.topics).not.toContain('alarms');
    expect(refused.topics).toContain('workorders');
    const granted = await adminTab.subscribe([...TOPICS]);
    expect(granted).toEqual({ topics: [...TOPICS], refused: [] });

    await api.realtime.publish([staff.personId, admin.personId], {
      channelType: 10,
      messageType: 7,
      messageId: 1,
      dataId: 9,
    });
    await waitFor(() => adminTab.events.find((e) => e.topic === 'alarms' && e.kind === 'sos'));
    await settle();
    expect(staffTab.events.filter((e) => e.topic === 'alarms')).toEqual([]);
  });

  it('when a tab unsubscribes from a topic, then its events stop arriving', async () => {
    await start();
    const [tab] = await open(admin.token);
    await ready(admin.personId, [tab]);
    await tab.subscribe(['announcements']);
    expect(await tab.socket.timeout(5000).emitWithAck('unsubscribe', ['announcements'])).toEqual({
      topics: ['announcements'],
      refused: [],
    });

    await api.realtime.publish([admin.personId], { channelType: 9, dataId: 1 });
    await api.realtime.publish([admin.personId], { channelType: 0, title: 'system notice' });
    // The session topic is always delivered; it arrived after the announcement would have.
    await waitFor(() => tab.events.find((e) => e.topic === 'session'));
    expect(tab.events.filter((e) => e.topic === 'announcements')).toEqual([]);
  });

  it('when the handshake carries a bad token, then connect_error says the session has expired', async () => {
    await start();
    const err = await openTab(gateway!.url, 'not-a-real-token').then(
      () => null,
      (e: Error & { data?: { code: number } }) => e,
    );
    expect(err?.message).toBe('Your session has expired, please sign in again');
    expect(err?.data?.code).toBe(401);
  });

  it('when the api pushes an unknown event number, then it is dropped and the next events still arrive', async () => {
    await start();
    const [tab] = await open(admin.token);
    await ready(admin.personId, [tab]);
    await tab.subscribe([...TOPICS]);

    await api.realtime.publish([admin.personId], { channelType: 9999, dataId: 1 });
    await api.realtime.publish([admin.personId], { channelType: 3, content: 'hello', group: { idGroup: 5 } });

    const chat = await waitFor(() => tab.events.find((e) => e.topic === 'chat'));
    expect(chat).toMatchObject({ kind: 'message', channelType: 3 });
    expect(tab.events).toHaveLength(1);
    expect(await metric(gateway!.url, 'gateway_dropped_events_total')).toBe(1);
  });
});

describe('live state', () => {
  it('when a tab connects late, then its snapshot equals what the earlier tabs hold after applying the deltas', async () => {
    await start();
    const early = await open(admin.token, 2);
    const initial = await ready(admin.personId, early);
    for (const t of early) await t.subscribe([...TOPICS]);

    await api.realtime.publish([admin.personId], { channelType: 8, messageType: 50, messageId: 900001, dataId: 77 });
    await api.realtime.publish([admin.personId], { channelType: 10, messageType: 7, messageId: 900002, dataId: 78 });
    await api.realtime.publish([admin.personId], { channelType: 3, content: 'hi', group: { idGroup: 1 } });
    for (const t of early) await waitFor(() => t.events.length === 3);

    const held = early[0].events.reduce(applyEvent, initial);
    expect(early[1].events.reduce(applyEvent, early[1].snapshots[0])).toEqual(held);
    const [late] = await open(admin.token);
    const lateSnapshot = await waitFor(() => late.snapshots[0]);
    expect(lateSnapshot).toEqual(held);
    // The events it counts, arriving after it (a snapshot read from Redis by another instance
    // can overtake them, issue 35), are not counted again: each carries the version it made.
    expect(early[0].events.reduce(applyEvent, lateSnapshot)).toEqual(lateSnapshot);
    expect(held.complaints.untreated).toBe(initial.complaints.untreated + 1);
    expect(held.unreadByType['7']).toBe((initial.unreadByType['7'] ?? 0) + 1);
  });

  it('when the upstream is dropped with 1006, then the gateway reconnects and sends every tab reconciled counters', async () => {
    await start();
    const adminTabs = await open(admin.token, 2);
    const initial = await ready(admin.personId, adminTabs);
    await adminTabs[0].subscribe(['workorders']);
    // A push the api never stored: the gateway's counters drift from the api's.
    await api.realtime.publish([admin.personId], {
      channelType: 7,
      messageType: 11,
      messageId: 999_999_001,
      dataId: 1,
    });
    await waitFor(() => adminTabs[0].events.length === 1);

    api.realtime.terminate(admin.personId);

    const reconciled = await Promise.all(
      adminTabs.map((t) => waitFor(() => t.snapshots.find((s) => s.version > initial.version + 1), 20_000)),
    );
    for (const s of reconciled) {
      expect(s.unreadByType).toEqual(initial.unreadByType);
      expect(s.chatUnread).toBe(initial.chatUnread);
    }
    expect(api.realtime.connectionCount(admin.personId)).toBe(1);
    expect(await metric(gateway!.url, 'gateway_upstream_reconnects_total')).toBe(1);
  });

  it('when the upstream drops (1006) while residents report, then the reports made meanwhile reach the tabs late, once each, in order', async () => {
    await start({ reconnectDelayMs: 1_000 });
    const reporter = await residentOf(api.url, 'resident1');
    const adminTabs = await open(admin.token, 2);
    await ready(admin.personId, adminTabs);
    for (const t of adminTabs) await t.subscribe(['workorders', 'alarms']);
    const sent = [`workorders:${await fileComplaint(api.url, reporter)}`];
    for (const t of adminTabs) await waitFor(() => reportsOf(t).length === 1);

    api.realtime.terminate(admin.personId);
    await waitFor(() => api.realtime.connectionCount(admin.personId) === 0);
    for (let i = 0; i < 5; i++)
      sent.push(
        i === 2 ? `alarms:${await callSos(api.url, reporter)}` : `workorders:${await fileComplaint(api.url, reporter)}`,
      );

    for (const t of adminTabs) await waitFor(() => reportsOf(t).length >= sent.length, 20_000);
    await settle();
    for (const t of adminTabs) expect(reportsOf(t)).toEqual(sent);
    expect(await metric(gateway!.url, 'gateway_upstream_reconnects_total')).toBe(1);
  });

  it('when a tab marks a message read through the proxy, then every tab of that person gets the reconciled snapshot', async () => {
    await start();
    const adminTabs = await open(admin.token, 3);
    const initial = await ready(admin.personId, adminTabs);
    const total = (s: LiveSnapshot) => Object.values(s.unreadByType).reduce((a, b) => a + b, 0);
    expect(total(initial)).toBeGreaterThan(0);

    const list = await fetch(`${gateway!.url}/api/base/message/list`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        page: 1,
        limit: 10,
        messageTypeList: [7, 11, 13, 27, 28, 29, 31, 32, 33, 49, 50],
        unReadStatus: 0,
      }),
    }).then((r) => r.json() as Promise<{ data: { list: { messageId: number }[] } }>);
    const messageId = list.data.list[0].messageId;
    const read = await fetch(`${gateway!.url}/api/base/message/hasRead`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messageId }),
    });
    expect(read.status).toBe(200);

    for (const t of adminTabs) {
      const next = await waitFor(() => t.snapshots.find((s) => s.version > initial.version));
      expect(total(next)).toBe(total(initial) - 1);
    }
  });
});

describe('counters changes', () => {
  it('when the api pushes a counters change, then every tab of that person gets a lowered snapshot and no event', async () => {
    await start();
    const adminTabs = await open(admin.token, 2);
    const initial = await ready(admin.personId, adminTabs);
    for (const t of adminTabs) await t.subscribe([...TOPICS]);
    const type = Object.keys(initial.unreadByType).find((k) => initial.unreadByType[k] > 0)!;

    await api.realtime.publish([admin.personId], { channelType: 3900, unreadByType: { [type]: -1 } });

    for (const t of adminTabs) {
      const next = await waitFor(() => t.snapshots.find((s) => s.version > initial.version));
      expect(next.unreadByType[type]).toBe(initial.unreadByType[type] - 1);
    }
    await settle();
    for (const t of adminTabs) expect(t.events).toEqual([]);
  });
});

describe('connection-state recovery', () => {
  it('when a tab drops for a moment, then on reconnecting it receives the events it missed', async () => {
    await start();
    const tab = await openTab(gateway!.url, admin.token, { reconnection: true });
    tabs.push(tab);
    await ready(admin.personId, [tab]);
    await tab.subscribe(['announcements']);

    // Block the automatic reconnection until the event was published while the tab was away.
    tab.socket.io.reconnection(false);
    dropConnection(tab);
    await waitFor(async () => (await metric(gateway!.url, 'gateway_client_sockets')) === 0);
    await api.realtime.publish([admin.personId], { channelType: 9, dataId: 31337 });
    await waitFor(async () => (await metric(gateway!.url, 'gateway_events_total', { topic: 'announcements' })) === 1);
    tab.socket.connect();

    const missed = await waitFor(() => tab.events.find((e) => e.topic === 'announcements'));
    expect(missed.dataId).toBe(31337);
    expect(tab.socket.recovered).toBe(true);
  });
});

describe('shutdown', () => {
  it('when the gateway shuts down, then its upstreams close and its tabs are dropped in a way that makes them reconnect', async () => {
    const stopping = await start();
    const [tab] = await open(admin.token);
    await ready(admin.personId, [tab]);
    const reason = new Promise<string>((resolve) => tab.socket.once('disconnect', resolve));

    await stopping.close();
    gateway = null;

    // 'transport close' (not 'io server disconnect') is the reason socket.io clients reconnect on.
    expect(await reason).toBe('transport close');
    await waitFor(() => api.realtime.connectionCount(admin.personId) === 0);
  });
});

describe('session', () => {
  it('when a person signs out through the gateway, then every tab of that token is told on the session topic and the upstream closes', async () => {
    await start();
    const token = await login(api.url, 'admin', 'admin123');
    const adminTabs = await open(token, 2);
    const [staffTab] = await open(staff.token);
    await ready(admin.personId, adminTabs);
    await ready(staff.personId, [staffTab]);

    const res = await fetch(`${gateway!.url}/api/auth/signOut`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    // The api's mark for the gateway does not reach the browser.
    expect(res.headers.get('x-token-revoked')).toBeNull();

    for (const t of adminTabs) {
      const e = await waitFor(() => t.events.find((x) => x.topic === 'session'));
      expect(['logout', 'forcedLogout']).toContain(e.kind);
      await waitFor(() => !t.socket.connected);
    }
    await waitFor(() => api.realtime.connectionCount(admin.personId) === 0);
    expect(staffTab.socket.connected).toBe(true);
    expect(api.realtime.connectionCount(staff.personId)).toBe(1);
    const again = await openTab(gateway!.url, token).then(
      () => 'connected',
      (e: Error) => e.message,
    );
    expect(again).toBe('Your session has expired, please sign in again');
  });
});
