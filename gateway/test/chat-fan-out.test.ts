// Issue 31: a group message sent to the gateway once (a fan-out frame) reaches every member's tabs
// once and no one else's, after an upstream's and a tab's reconnect too (one gateway, no Redis).
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { GatewayHandle } from '../src/server';
import { startRealApi, startTestGateway } from './kit';
import { groupMessageReachesEveryMemberOnce } from './kit/group-fan-out';

describe('a group message through one gateway', () => {
  let api: Awaited<ReturnType<typeof startRealApi>>;
  let gateway: GatewayHandle;

  beforeAll(async () => {
    api = await startRealApi();
    gateway = await startTestGateway(api, { reconnectDelayMs: 200, fanOut: true });
  });
  afterAll(async () => {
    await gateway?.close();
    await api?.cleanup();
  });

  it('when a group message is sent, then every member tab gets it once (live, after an upstream or tab reconnect), a non-member and a removed member none', async () => {
    await groupMessageReachesEveryMemberOnce(api, [gateway, gateway]);
  }, 120_000);
});
