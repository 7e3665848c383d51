// Issue 30, scale-out (DESIGN §1): two gateways on one Redis in front of a real api. When an
// access change signs a person out (the account disabled), every tab of the person, on the
// gateway holding the upstream and on the other one, is told on the session topic FIRST and only
// then disconnected (the console says why the session ended instead of "connection lost").
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayHandle } from '../src/server';
import { call, metric, openTab, signIn, startRealApi, startTestGateway, waitFor, type Tab } from './kit';

const redisUrl = process.env.TEST_REDIS_URL as string;
const prefix = `pm-access-signout-test:${randomUUID()}:`;
let api: Awaited<ReturnType<typeof startRealApi>>;
let gateways: GatewayHandle[] = [];
const tabs: Tab[] = [];

beforeAll(async () => {
  api = await startRealApi();
  gateways = [
    await startTestGateway(api, { redisUrl, redisPrefix: prefix }),
    await startTestGateway(api, { redisUrl, redisPrefix: prefix }),
  ];
  // Starting a real api with its demo data takes a while on a loaded machine.
}, 180_000);

afterAll(async () => {
  for (const t of tabs) t.close();
  for (const g of gateways) await g.close();
  await api?.cleanup();
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

/** What a tab heard, in order: session events and its disconnect. */
function journal(tab: Tab): string[] {
  const seen: string[] = [];
  tab.socket.on('session', (e) => seen.push(`session:${e.kind}`));
  tab.socket.on('disconnect', (reason) => seen.push(`disconnect:${reason}`));
  return seen;
}

describe('a sign-out by an access change across two gateways (issue 30)', () => {
  it('when an administrator disables an account, then its tabs on both gateways are told first and then disconnected', async () => {
    const admin = await signIn(api.url, 'admin');
    const staff = await signIn(api.url, 'staff');
    const me = await call<{ accId: number }>(api.url, staff.token, 'GET', '/realtime/identity');
    // The first gateway holds the upstream (its tab came first); two tabs on each gateway.
    for (const g of [gateways[0], gateways[0], gateways[1], gateways[1]]) {
      const tab = await openTab(g.url, staff.token);
      tabs.push(tab);
      await waitFor(() => tab.snapshots[0]);
    }
    await waitFor(() => api.realtime.connectionCount(staff.personId) === 1);
    expect(await metric(gateways[0].url, 'gateway_upstream_connections')).toBe(1);
    expect(await metric(gateways[1].url, 'gateway_upstream_connections')).toBe(0);
    const seen = tabs.map(journal);

    await call(api.url, admin.token, 'POST', '/account/update', { accId: me.accId, enabled: false });

    await waitFor(() => seen.every((s) => s.some((x) => x.startsWith('disconnect:'))));
    for (const s of seen) expect(s).toEqual(['session:forcedLogout', 'disconnect:io server disconnect']);
    for (const g of gateways) await expect(openTab(g.url, staff.token)).rejects.toThrow();
  });
});
