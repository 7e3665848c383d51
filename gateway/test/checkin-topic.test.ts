// The `checkin` topic (issue 32) through a real gateway and a real api (embedded database, demo
// data): a staff member's punch from the staff app reaches a console tab subscribed to the topic,
// with who punched, in or out, accepted or refused and the server's time; a tab of an account
// without checkin:view (the demo staff role has checkin:punch only) hears nothing of it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '@pm/shared';
import type { GatewayHandle } from '../src/server';
import {
  call,
  openTab,
  settle,
  signIn,
  startRealApi,
  startTestGateway,
  waitFor,
  waitForTopic,
  type Person,
  type Tab,
} from './kit';

/** The demo's check-in place (api/src/seed/seed-checkin.ts DEMO_CHECKIN_PLACE). */
const PLACE = { lat: 22.2799, lng: 114.1588 };

let api: Awaited<ReturnType<typeof startRealApi>>;
let gateway: GatewayHandle | null = null;
let tabs: Tab[] = [];
let admin: Person;
let staff: Person;

// The seeded embedded database takes a while on a loaded machine.
beforeAll(async () => {
  api = await startRealApi();
  admin = await signIn(api.url, 'admin');
  staff = await signIn(api.url, 'staff');
}, 240_000);
afterAll(async () => api?.cleanup());
afterEach(async () => {
  for (const t of tabs) t.close();
  tabs = [];
  await gateway?.close();
  gateway = null;
  await waitFor(() => api.realtime.connectionCount() === 0);
});

/** A console tab subscribed to `checkin`; answers it and the topics the gateway refused it. */
async function tabOf(person: Person): Promise<{ tab: Tab; refused: string[] }> {
  const tab = await openTab(gateway!.url, person.token);
  tabs.push(tab);
  // The kit's tabs listen to the older topics only; this one is heard here.
  tab.socket.on('checkin' as never, (e: LiveEvent) => void tab.events.push(e));
  await waitFor(() => api.realtime.connectionCount(person.personId) === 1);
  await waitFor(() => tab.snapshots[0]);
  const ack = await tab.subscribe(['checkin']);
  return { tab, refused: ack.refused };
}

/** A punch from the staff app, through the gateway as the app would; answers the HTTP status. */
async function punch(kind: 'in' | 'out', where: { lat: number; lng: number }, key: string): Promise<number> {
  const res = await fetch(`${gateway!.url}/api/app/checkin/punch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${staff.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ kind, ...where, accuracyMetres: 8, deviceId: 'gateway-test', idempotencyKey: key }),
    signal: AbortSignal.timeout(10_000),
  });
  return res.status;
}

describe('the checkin topic', () => {
  it('when a staff member punches in the place, then a subscribed console tab gets the punch with its person, kind and server time, and a tab without checkin:view gets nothing', async () => {
    gateway = await startTestGateway(api);
    const { tab: board, refused: boardRefused } = await tabOf(admin);
    const { tab: guard, refused: guardRefused } = await tabOf(staff);
    expect(boardRefused).toEqual([]);
    expect(guardRefused).toEqual(['checkin']);

    const before = Date.now();
    expect(await punch('in', PLACE, `gw-topic-in-${before}`)).toBe(200);
    const e = await waitForTopic(board, 'checkin', (x) => x.payload.personId === staff.personId);
    expect(e).toMatchObject({
      topic: 'checkin',
      kind: 'punch',
      channelType: 3400,
      payload: { personId: staff.personId, action: 'punch', kind: 'in' },
    });
    expect(typeof e.dataId).toBe('number');
    const at = Date.parse(e.payload.at!);
    expect(at).toBeGreaterThanOrEqual(before - 1_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1_000);
    // The punch is the one the records list shows.
    const page = await call<{ list: { punchId: number; personId: number }[] }>(
      api.url,
      admin.token,
      'POST',
      '/base/checkin/punch/page',
      { page: 1, limit: 10, personId: staff.personId },
    );
    expect(page.list.map((p) => p.punchId)).toContain(e.dataId);

    await settle();
    expect(guard.events.filter((x) => x.topic === 'checkin')).toEqual([]);
  });

  it('when a punch is refused outside the radius, then the subscribed tab hears it as refused, and a retried request is heard once', async () => {
    gateway = await startTestGateway(api);
    const { tab: board } = await tabOf(admin);
    const { tab: guard } = await tabOf(staff);

    const key = `gw-topic-far-${Date.now()}`;
    const far = { lat: PLACE.lat + 0.005, lng: PLACE.lng }; // ≈ 555 m north
    expect(await punch('out', far, key)).toBe(400);
    const e = await waitForTopic(board, 'checkin', (x) => x.payload.action === 'refused');
    expect(e.payload).toMatchObject({ personId: staff.personId, action: 'refused', kind: 'out' });
    // The same request again (a retry): stored once, so no second event.
    expect(await punch('out', far, key)).toBe(400);
    await settle();
    expect(board.events.filter((x) => x.topic === 'checkin' && x.dataId === e.dataId)).toHaveLength(1);
    expect(guard.events.filter((x) => x.topic === 'checkin')).toEqual([]);
  });
});
