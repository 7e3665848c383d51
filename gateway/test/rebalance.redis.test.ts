// Issue 34, README "Part 13": a second gateway on Redis takes half of the tabs when it starts. The
// tabs reach the gateways through a least-connections balancer; the busy gateway closes some of its
// persons' connections and they come back on the new one, their sessions recovered through Redis.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBenchStaff } from '../../api/bench/bench-staff';
import type { Db } from '../../api/src/db/open-database';
import {
  complaintCounters,
  fileComplaint,
  leastConnections,
  metric,
  openTab,
  residentOf,
  shownComplaintCounters,
  startRealApi,
  startTestGateway,
  waitFor,
  type Tab,
} from './kit';

const redisUrl = process.env.TEST_REDIS_URL as string;
const PERSONS = 16;
const TABS_PER_PERSON = 3;

let api: Awaited<ReturnType<typeof startRealApi>>;
let staff: Awaited<ReturnType<typeof createBenchStaff>>;
const closers: (() => Promise<unknown> | void)[] = [];

beforeAll(async () => {
  api = await startRealApi();
  staff = await createBenchStaff((api as unknown as { db: Db }).db, PERSONS, { prefix: 'rebalance' });
}, 120_000);

afterAll(async () => {
  for (const close of closers.reverse()) await Promise.resolve(close()).catch(() => undefined);
  await api.cleanup();
});

describe('a second gateway on Redis (issue 34)', () => {
  it('when a second gateway starts beside one holding every tab, then it takes about half of them, every tab stays connected with its session, and live counters reach every tab on both', async () => {
    const prefix = `pm-gateway-test:${randomUUID()}:`;
    const options = { redisUrl, redisPrefix: prefix, rebalance: { intervalMs: 300, slack: 0.1, maxPerTick: 20 } };
    const a = await startTestGateway(api, options);
    closers.push(() => a.close());
    const balancer = await leastConnections([a.url]);
    closers.push(() => balancer.close());

    const tabs: Tab[] = [];
    for (const s of staff)
      for (let i = 0; i < TABS_PER_PERSON; i++) {
        const tab = await openTab(balancer.url, s.token, { reconnection: true });
        closers.push(() => tab.close());
        await tab.subscribe(['workorders']);
        tabs.push(tab);
      }
    const total = PERSONS * TABS_PER_PERSON;
    expect(await metric(a.url, 'gateway_client_sockets')).toBe(total);
    const ids = new Map(tabs.map((t) => [t, t.socket.id]));

    const b = await startTestGateway(api, options);
    closers.push(() => b.close());
    balancer.add(b.url);

    // B takes its share: within 10 % of half (whole persons move, three tabs at a time).
    await waitFor(async () => {
      const onB = await metric(b.url, 'gateway_client_sockets');
      const onA = await metric(a.url, 'gateway_client_sockets');
      const share = Math.ceil((total / 2) * 1.1);
      return onA + onB === total && onB >= total * 0.4 && onA <= share && onB <= share;
    }, 60_000);
    expect(await metric(a.url, 'gateway_tabs_moved_total')).toBeGreaterThan(0);
    expect(await metric(b.url, 'gateway_tabs_moved_total')).toBe(0);
    expect(tabs.every((t) => t.socket.connected)).toBe(true);
    // The moved tabs recovered their sessions (same socket id), so nothing they missed is lost.
    expect(tabs.filter((t) => t.socket.id !== ids.get(t)).length).toBe(0);

    // It settles: no more moves once shared, on either side (five rounds and more).
    const moved = await metric(a.url, 'gateway_tabs_moved_total');
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await metric(a.url, 'gateway_tabs_moved_total')).toBe(moved);
    expect(await metric(b.url, 'gateway_tabs_moved_total')).toBe(0);

    // A complaint changes the counters of every tab, on either gateway.
    await fileComplaint(api.url, await residentOf(api.url, 'resident1'));
    const expected = await Promise.all(staff.map((s) => complaintCounters(api.url, s.token)));
    const wrong = () =>
      tabs
        .map((tab, i) => ({
          i,
          shown: shownComplaintCounters(tab),
          expected: expected[Math.floor(i / TABS_PER_PERSON)],
        }))
        .filter((t) => JSON.stringify(t.shown) !== JSON.stringify(t.expected));
    await waitFor(() => wrong().length === 0, 30_000).catch(() => undefined);
    expect(wrong()).toEqual([]);
    const redis = new Redis(redisUrl);
    closers.push(() => redis.quit());
    expect(Object.keys(await redis.hgetall(`${prefix}gateways`)).length).toBe(2);
  }, 180_000);

  it('when the other instance is busy (many handshakes in flight), then no tab moves to it; once it is not, tabs move', async () => {
    const prefix = `pm-gateway-test:${randomUUID()}:`;
    const options = { redisUrl, redisPrefix: prefix, rebalance: { intervalMs: 300, slack: 0.1, maxPerTick: 20 } };
    const a = await startTestGateway(api, options);
    closers.push(() => a.close());
    const tabs: Tab[] = [];
    for (const s of staff.slice(0, 4)) {
      const tab = await openTab(a.url, s.token, { reconnection: true });
      closers.push(() => tab.close());
      tabs.push(tab);
    }
    // Another instance says, every 100 ms, that it holds no tab and has 500 handshakes in flight (a
    // gateway just started into a storm, its accept queue long).
    const redis = new Redis(redisUrl);
    closers.push(() => redis.quit());
    let handshakes = 500;
    const say = () =>
      redis.hset(`${prefix}gateways`, 'restarted', JSON.stringify({ tabs: 0, at: Date.now(), handshakes, lateMs: 0 }));
    await say();
    const speaking = setInterval(() => void say(), 100);
    closers.push(() => clearInterval(speaking));
    // Ten rounds: A holds all 4 of 4 (its fair share 2), and moves none to the busy instance.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await metric(a.url, 'gateway_tabs_moved_total')).toBe(0);
    // Its handshakes done, the instance is given tabs.
    handshakes = 0;
    await waitFor(async () => (await metric(a.url, 'gateway_tabs_moved_total')) > 0, 30_000);
    clearInterval(speaking);
    await redis.del(`${prefix}gateways`);
  }, 120_000);
});
