// Issue 31 across the scale-out: two gateways on one Redis in front of one api. A group message
// reaches every member's tabs once, on whichever gateway they are, and no one else's, after an
// upstream's and a tab's reconnect too; each gateway gets it from the api once for the members
// whose upstreams it holds.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { GatewayHandle } from '../src/server';
import { startRealApi, startTestGateway } from './kit';
import { groupMessageReachesEveryMemberOnce } from './kit/group-fan-out';

const redisUrl = process.env.TEST_REDIS_URL as string;

describe('a group message through two gateways on Redis', () => {
  let api: Awaited<ReturnType<typeof startRealApi>>;
  let gateways: [GatewayHandle, GatewayHandle];

  beforeAll(async () => {
    api = await startRealApi();
    const prefix = `pm-fan-out-test:${randomUUID()}:`;
    gateways = [
      await startTestGateway(api, { redisUrl, redisPrefix: prefix, reconnectDelayMs: 200, fanOut: true }),
      await startTestGateway(api, { redisUrl, redisPrefix: prefix, reconnectDelayMs: 200, fanOut: true }),
    ];
  });
  afterAll(async () => {
    for (const g of gateways ?? []) await g.close();
    await api?.cleanup();
  });

  it('when a group message is sent, then every member tab on either gateway gets it once (live, after an upstream or tab reconnect), a non-member and a removed member none', async () => {
    await groupMessageReachesEveryMemberOnce(api, gateways);
  }, 120_000);
});
