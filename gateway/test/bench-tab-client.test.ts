// README "Part 30": the gateway bench's tabs speak socket.io's wire protocol over one `ws` themselves
// (gateway/bench/tab-client.ts), so the harness costs less of the two cores it shares with the gateways.
// What the bench measures must not change: against a real gateway such a tab connects with its token,
// gets its snapshot, subscribes, reads a push's `sentAt`, recovers what it missed after a cut, comes
// back by itself after a cut, and is refused with the gateway's code.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSnapshot } from '@pm/shared';
import type { GatewayHandle } from '../src/server';
import { offsetOf, sentAtOf, TabClient, type TabHandlers } from '../bench/tab-client';
import { metric, signIn, startRealApi, startTestGateway, waitFor } from './kit';

let api: Awaited<ReturnType<typeof startRealApi>>;
let gateway: GatewayHandle;
let admin: { token: string; personId: number };
const tabs: TabClient[] = [];

beforeAll(async () => {
  api = await startRealApi();
  admin = await signIn(api.url, 'admin');
  gateway = await startTestGateway(api);
}, 120_000);

afterEach(() => {
  for (const t of tabs.splice(0)) t.disconnect();
});

afterAll(async () => {
  await gateway?.close();
  await api?.cleanup();
});

/** A bench tab with everything it is told recorded. */
function benchTab(token: string, pause = () => 200) {
  const seen = {
    connects: 0,
    disconnects: 0,
    errors: [] as ({ code?: number } | undefined)[],
    sentAts: [] as number[],
    dataIds: [] as number[],
    snapshots: [] as LiveSnapshot[],
  };
  const handlers: TabHandlers = {
    onEvent(name, frame) {
      if (name === 'announcements') {
        seen.sentAts.push(sentAtOf(frame));
        seen.dataIds.push(
          (JSON.parse(frame.slice(2).replace(/,"[^"]*"\]$/, ']')) as [string, { dataId: number }])[1].dataId,
        );
      } else if (name === 'snapshot') seen.snapshots.push((JSON.parse(frame.slice(2)) as [string, LiveSnapshot])[1]);
    },
    onConnect() {
      seen.connects++;
      tab.emit('subscribe', ['announcements']);
    },
    onDisconnect() {
      seen.disconnects++;
    },
    onConnectError(data) {
      seen.errors.push(data);
    },
  };
  const tab = new TabClient(gateway.url, token, undefined, handlers, pause);
  tabs.push(tab);
  tab.connect();
  return { tab, seen };
}

const announcements = () => metric(gateway.url, 'gateway_events_total', { topic: 'announcements' });

describe('the bench tab (gateway/bench/tab-client.ts)', () => {
  it('when it reads a frame, then it finds the sentAt and the recovery offset without decoding it', () => {
    const frame =
      '42["announcements",{"topic":"announcements","payload":{"channelType":9,"sentAt":1764366000123.25}},"1764-0"]';
    expect(sentAtOf(frame)).toBe(1764366000123.25);
    expect(offsetOf(frame)).toBe('1764-0');
    expect(sentAtOf('42["announcements",{"payload":{}}]')).toBe(0);
    expect(offsetOf('42["announcements",{"payload":{}}]')).toBeUndefined();
  });

  it('when it connects with its token, then it gets its snapshot, subscribes, and reads each push with its sentAt', async () => {
    const { tab, seen } = benchTab(admin.token);
    await waitFor(() => tab.connected && seen.snapshots.length > 0);
    await waitFor(async () => (await metric(gateway.url, 'gateway_client_sockets')) === 1);
    const before = await announcements();
    const sentAt = Date.now() + 0.5;
    // Subscribed once the gateway counts the event as sent to a tab.
    await waitFor(async () => {
      await api.realtime.publish([admin.personId], { channelType: 9, dataId: 7, sentAt });
      await waitFor(async () => (await announcements()) > before);
      return seen.sentAts.length > 0;
    });
    expect(seen.sentAts[0]).toBe(sentAt);
    expect(seen.dataIds[0]).toBe(7);
    expect(seen.errors).toEqual([]);
  });

  it('when its transport is cut and it comes back, then it recovers the events it missed (the session, not a new one)', async () => {
    const { tab, seen } = benchTab(admin.token);
    await waitFor(() => tab.connected);
    // A first event sets the offset the tab recovers from.
    await waitFor(async () => {
      await api.realtime.publish([admin.personId], { channelType: 9, dataId: 1, sentAt: Date.now() });
      await new Promise((r) => setTimeout(r, 100));
      return seen.dataIds.includes(1);
    });
    const snapshots = seen.snapshots.length;

    tab.cut(false);
    await waitFor(async () => (await metric(gateway.url, 'gateway_client_sockets')) === 0);
    const before = await announcements();
    await api.realtime.publish([admin.personId], { channelType: 9, dataId: 31337, sentAt: Date.now() });
    await waitFor(async () => (await announcements()) > before);
    tab.connect();

    await waitFor(() => seen.dataIds.includes(31337));
    expect(seen.disconnects).toBe(1);
    expect(seen.connects).toBe(2);
    expect(seen.snapshots.length).toBeGreaterThan(snapshots);
  });

  it('when its transport is lost, then it comes back by itself after its pause', async () => {
    const { tab, seen } = benchTab(admin.token, () => 300);
    await waitFor(() => tab.connected);
    tab.cut();
    expect(tab.connected).toBe(false);
    await waitFor(() => tab.connected && seen.connects === 2);
    expect(seen.disconnects).toBe(1);
  });

  it('when its token is not valid, then it is refused with the code, and does not try again by itself', async () => {
    const { tab, seen } = benchTab('made-up-token');
    await waitFor(() => seen.errors.length > 0);
    expect(seen.errors[0]?.code).toBe(401);
    await new Promise((r) => setTimeout(r, 600));
    expect(seen.errors).toHaveLength(1);
    expect(tab.connected).toBe(false);
  });
});
