// The upstream channel on a bare HTTP server with an in-memory token table: upgrade checks,
// heartbeat, idle close, revocation, delivery, and the PostgreSQL fan-out between two instances.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { attachRealtime, type RealtimeHandle, type RealtimeOptions } from '../src/modules/realtime';
import { openSocket, refusedStatus, type TestSocket } from './realtime-test-client';

const TOKENS: Record<string, { personId: number; expiresAt?: number }> = {
  'token-a': { personId: 1 },
  'token-a2': { personId: 1 },
  'token-b': { personId: 2 },
};

interface Instance {
  url: string;
  realtime: RealtimeHandle;
  server: Server;
}
const instances: Instance[] = [];
const sockets: TestSocket[] = [];

async function start(options: Partial<RealtimeOptions> = {}): Promise<Instance> {
  const server = createServer((_req, res) => res.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const realtime = await attachRealtime(server, {
    verifyToken: async (token) => TOKENS[token] ?? null,
    ...options,
  });
  const instance = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, realtime, server };
  instances.push(instance);
  return instance;
}

async function open(url: string, token: string, personId: number): Promise<TestSocket> {
  const s = await openSocket(url, token, personId);
  sockets.push(s);
  return s;
}

afterEach(async () => {
  await Promise.all(sockets.splice(0).map((s) => s.close()));
  for (const i of instances.splice(0)) {
    await i.realtime.close();
    await new Promise((resolve) => i.server.close(resolve));
  }
});

describe('upstream channel', () => {
  it('when the token belongs to the person, then the upgrade succeeds and heartbeats are answered', async () => {
    const api = await start();
    const s = await open(api.url, 'token-a', 1);
    s.ws.send(JSON.stringify({ channelType: 'heartbeat', time: 123 }));
    const answer = await s.waitFor((m) => m.channelType === 'heartbeat');
    expect(typeof answer.time).toBe('number');
    expect(api.realtime.connectionCount(1)).toBe(1);
  });

  it("when the token is another person's or unknown, then the upgrade is refused with 401", async () => {
    const api = await start();
    expect(await refusedStatus(api.url, 'token-b', 1)).toBe(401);
    expect(await refusedStatus(api.url, 'no-such-token', 1)).toBe(401);
    expect(api.realtime.connectionCount()).toBe(0);
  });

  it('when the path is not /{token}/{personId}, then the upgrade is refused with 404', async () => {
    const api = await start();
    expect(await refusedStatus(`${api.url}/a`, 'token-a', 1)).toBe(404);
  });

  it('when a push names a person, then every connection of that person gets it once and others none', async () => {
    const api = await start();
    const a1 = await open(api.url, 'token-a', 1);
    const a2 = await open(api.url, 'token-a2', 1);
    const b = await open(api.url, 'token-b', 2);
    await api.realtime.publish([1, 1], { channelType: 8, messageType: 50, messageId: 7, dataId: 3 });
    await api.realtime.publish([2], { channelType: 9, dataId: 99 });
    await a1.waitFor((m) => m.channelType === 8);
    await a2.waitFor((m) => m.channelType === 8);
    await b.waitFor((m) => m.channelType === 9);
    expect(a1.messages.filter((m) => m.channelType === 8)).toEqual([
      { channelType: 8, messageType: 50, messageId: 7, dataId: 3 },
    ]);
    expect(a1.messages.some((m) => m.channelType === 9)).toBe(false);
    expect(b.messages.some((m) => m.channelType === 8)).toBe(false);
  });

  it('when a connection sends nothing for the idle time, then it is closed with 4000', async () => {
    const api = await start({ idleMs: 300 });
    const s = await open(api.url, 'token-a', 1);
    expect(await s.closed).toBe(4000);
  });

  it('when a token is revoked, then its connections close with 4001 and other tokens stay open', async () => {
    const api = await start();
    const revoked = await open(api.url, 'token-a', 1);
    const kept = await open(api.url, 'token-a2', 1);
    await api.realtime.revokeToken('token-a');
    expect(await revoked.closed).toBe(4001);
    kept.ws.send(JSON.stringify({ channelType: 'heartbeat', time: 1 }));
    await kept.waitFor((m) => m.channelType === 'heartbeat');
  });

  it('when a person is terminated, then the peer sees 1006', async () => {
    const api = await start();
    const s = await open(api.url, 'token-a', 1);
    api.realtime.terminate(1);
    expect(await s.closed).toBe(1006);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('upstream channel over PostgreSQL LISTEN/NOTIFY', () => {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  const channel = `rt_test_${process.pid}_${Date.now()}`;

  it('when two instances share a database, then an event published on either reaches every connection exactly once', async () => {
    const one = await start({ databaseUrl, channel });
    const two = await start({ databaseUrl, channel });
    const onOne = await open(one.url, 'token-a', 1);
    const onTwo = await open(two.url, 'token-a2', 1);
    const other = await open(two.url, 'token-b', 2);
    for (let i = 0; i < 20; i++) {
      await (i % 2 ? one : two).realtime.publish([1], { channelType: 8, dataId: i });
    }
    // A large push is chunked under NOTIFY's 8000-byte limit and must arrive whole.
    const big = 'x'.repeat(20_000) + '—漢字😀';
    await one.realtime.publish([1, 2], { channelType: 0, dataId: 100, text: big });
    for (const s of [onOne, onTwo]) {
      await s.waitFor((m) => m.dataId === 100);
      const ids = s.messages.filter((m) => m.channelType === 8).map((m) => m.dataId);
      expect(ids.sort((a, b) => Number(a) - Number(b))).toEqual([...Array(20).keys()]);
      expect(s.messages.filter((m) => m.dataId === 100)).toEqual([{ channelType: 0, dataId: 100, text: big }]);
    }
    await other.waitFor((m) => m.dataId === 100);
    expect(other.messages.filter((m) => m.channelType === 8)).toEqual([]);
  });

  it('when a token is revoked on one instance, then its connection on the other closes with 4001', async () => {
    const one = await start({ databaseUrl, channel });
    const two = await start({ databaseUrl, channel });
    const s = await open(two.url, 'token-a', 1);
    await one.realtime.revokeToken('token-a');
    expect(await s.closed).toBe(4001);
  });
});
