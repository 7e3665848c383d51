// Issue 21 "an SOS is never lost between the api and a screen", during a gateway TAKEOVER: two
// real gateway processes on one real Redis in front of a real api. The instance holding the
// person's upstream connection is killed -9; a resident calls SOS while nobody holds it (the api
// has no upstream for the person); the other instance takes the upstream over once the Redis
// lease runs out. The tab on the survivor must get the missed call itself as an `alarms` event
// (the missed-SOS replay from the api's push journal), not only a corrected alarm counter.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  callSos,
  metric,
  openTab,
  residentOf,
  signIn,
  spawnGateway,
  startRealApi,
  waitFor,
  waitForTopic,
  type GatewayProcess,
  type Person,
  type Resident,
  type Tab,
} from './kit';

const redisUrl = process.env.TEST_REDIS_URL as string;
const prefix = `pm-gateway-test:${randomUUID()}:`;
// Long enough that the SOS below is certainly made before the survivor may take the lease over.
const LEASE_TTL_MS = 4000;

let api: Awaited<ReturnType<typeof startRealApi>>;
let redis: Redis;
let gateways: GatewayProcess[] = [];
let tabs: Tab[] = [];
let admin: Person;
let resident: Resident;

beforeAll(async () => {
  api = await startRealApi();
  redis = new Redis(redisUrl);
  admin = await signIn(api.url, 'admin');
  resident = await residentOf(api.url, 'resident1');
});

afterAll(async () => {
  await api?.cleanup();
  await redis?.quit();
});

afterEach(async () => {
  for (const t of tabs) t.close();
  tabs = [];
  await Promise.all(gateways.map((g) => g.stop('SIGTERM')));
  gateways = [];
  await waitFor(() => api.realtime.connectionCount() === 0);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
});

async function gateway(): Promise<GatewayProcess> {
  const g = await spawnGateway({
    API_URL: api.url,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    METRICS_PORT: '0',
    GATEWAY_LEASE_TTL_MS: String(LEASE_TTL_MS),
    GATEWAY_GRACE_MS: '1000',
  });
  gateways.push(g);
  return g;
}

/** How many upstream connections the instance holds (its /metrics sit on a port of their own). */
function upstreams(g: GatewayProcess): Promise<number> {
  const listening = g.logs.find((l) => l.msg === 'gateway listening');
  return metric(String(listening?.metrics ?? '').replace(/\/metrics$/, ''), 'gateway_upstream_connections');
}

async function alarmTab(g: GatewayProcess): Promise<Tab> {
  const tab = await openTab(g.url, admin.token);
  tabs.push(tab);
  await waitFor(() => tab.snapshots[0]);
  await tab.subscribe(['alarms']);
  return tab;
}

interface OpenCall {
  id: number;
  state: 'open' | 'acknowledged' | 'closed';
}

describe('an SOS during a gateway takeover', () => {
  it('when the instance holding the upstream dies and a resident calls SOS before the other takes over, then the tab on the survivor gets that call as an alarm event, its counter and the open list', async () => {
    const [a, b] = await Promise.all([gateway(), gateway()]);
    const tabA = await alarmTab(a);
    const tabB = await alarmTab(b);
    const holder = await waitFor(async () =>
      (await upstreams(a)) === 1 ? a : (await upstreams(b)) === 1 ? b : undefined,
    );
    const survivor = holder === a ? b : a;
    const tab = holder === a ? tabB : tabA;
    const unread = () => tab.counters().unreadByType['7'] ?? 0;
    const before = unread();

    await holder.stop('SIGKILL');
    await waitFor(() => api.realtime.connectionCount(admin.personId) === 0);
    // Raised while no instance holds the person's upstream: the api cannot push it to anyone now.
    const missed = await callSos(api.url, resident);
    const acknowledged = await callSos(api.url, resident);
    await call(api.url, admin.token, 'POST', `/disaster/sos/${acknowledged}/acknowledge`);
    expect(api.realtime.connectionCount(admin.personId)).toBe(0);
    expect(tab.events.some((e) => e.topic === 'alarms' && e.dataId === missed)).toBe(false);

    // The survivor takes the upstream over and the api replays what the person missed.
    await waitFor(async () => (await upstreams(survivor)) === 1, 20_000);
    const replayed = await waitForTopic(tab, 'alarms', (e) => e.kind === 'sos' && e.dataId === missed, 20_000);
    expect(replayed.payload).toMatchObject({ sos: 'new' });
    await waitForTopic(tab, 'alarms', (e) => e.kind === 'sos' && e.dataId === acknowledged, 20_000);
    await waitForTopic(tab, 'alarms', (e) => e.kind === 'sosUpdate' && e.dataId === acknowledged, 20_000);
    // Once each, in the order they happened.
    const sosEvents = tab.events
      .filter((e) => e.topic === 'alarms' && (e.dataId === missed || e.dataId === acknowledged))
      .map((e) => `${e.kind}:${e.dataId}`);
    expect(sosEvents).toEqual([`sos:${missed}`, `sos:${acknowledged}`, `sosUpdate:${acknowledged}`]);

    // The alarm bell the console shows: one more unread alarm (the acknowledged call's message was
    // read for everyone).
    await waitFor(() => unread() === before + 1, 20_000);

    // The screen's open list, read through the survivor, has both; the unacknowledged one first.
    const open = await call<OpenCall[]>(`${survivor.url}/api`, admin.token, 'GET', '/disaster/sos/open');
    const ids = open.map((c) => c.id);
    expect(open.find((c) => c.id === missed)?.state).toBe('open');
    expect(open.find((c) => c.id === acknowledged)?.state).toBe('acknowledged');
    expect(ids.indexOf(missed)).toBeLessThan(ids.indexOf(acknowledged));
  }, 90_000);
});
