import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROADCAST_BATCH, RedisBroadcastBatching } from '../src/redis-broadcast-batching';

// The broadcasts of one turn as one stream entry (issue 31, tenth pass), on a real Redis with two
// real socket.io servers and the streams adapter as the gateway configures it; clients are real
// socket.io clients. Only the stream is read directly, to count its entries.
const redisUrl = process.env.TEST_REDIS_URL as string;
const prefix = `pm-batching-test:${randomUUID()}:`;
const streamName = `${prefix}socket.io`;
const clients: Redis[] = [];
const servers: { io: Server; http: HttpServer; url: string }[] = [];
const sockets: ClientSocket[] = [];

/** `ownSessions`: sessions read by the batching itself (one GETDEL), as the gateway has it since README "Part 21". */
async function startServer(ownSessions = false): Promise<{ io: Server; url: string }> {
  const redis = new Redis(redisUrl, { enableAutoPipelining: true });
  clients.push(redis);
  const batching = new RedisBroadcastBatching(
    redis,
    streamName,
    60_000,
    ownSessions ? `${prefix}sio:session:` : undefined,
  );
  const http = createServer();
  const io = new Server(http, {
    connectionStateRecovery: { maxDisconnectionDuration: 60_000, skipMiddlewares: true },
    adapter: batching.wrap(
      createAdapter(redis, {
        streamName,
        channelPrefix: streamName,
        sessionKeyPrefix: `${prefix}sio:session:`,
        onlyPlaintext: true,
      }),
    ),
  });
  io.on('connection', (socket) => void socket.join('members'));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  servers.push({ io, http, url });
  return { io, url };
}

/** A client of one server that records every `n` it hears and the offset it came with. */
async function tab(url: string): Promise<{ socket: ClientSocket; heard: number[]; offsets: string[] }> {
  const socket = connect(url, { transports: ['websocket'], reconnection: false, forceNew: true });
  sockets.push(socket);
  const heard: number[] = [];
  const offsets: string[] = [];
  socket.on('n', (n: number, offset: string) => {
    heard.push(n);
    offsets.push(offset);
  });
  await new Promise<void>((r) => socket.once('connect', () => r()));
  return { socket, heard, offsets };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

/** The stream's broadcast entries: how many single ones (type 3) and batches with how many packets. */
async function streamEntries(): Promise<{ single: number; batches: number[] }> {
  const redis = clients[0];
  const entries = await redis.xrange(streamName, '-', '+');
  let single = 0;
  const batches: number[] = [];
  for (const [, fields] of entries) {
    const entry: Record<string, string> = {};
    for (let i = 0; i + 1 < fields.length; i += 2) entry[fields[i]] = fields[i + 1];
    if (entry.type === '3') single++;
    if (entry.type === String(BROADCAST_BATCH))
      batches.push((JSON.parse(entry.data) as { broadcasts: unknown[] }).broadcasts.length);
  }
  return { single, batches };
}

let a: { io: Server; url: string };
let b: { io: Server; url: string };
let c: { io: Server; url: string };

beforeAll(async () => {
  a = await startServer();
  b = await startServer();
  c = await startServer(true);
  // Both adapters have subscribed and started reading the stream.
  await new Promise((r) => setTimeout(r, 300));
});

afterAll(async () => {
  for (const s of sockets) s.disconnect();
  for (const s of servers) await new Promise((r) => s.io.close(r));
  const keys = await clients[0].keys(`${prefix}*`);
  if (keys.length > 0) await clients[0].del(...keys);
  for (const c of clients) await c.quit();
});

describe('RedisBroadcastBatching', () => {
  it('sends the broadcasts of one turn as stream entries of 100, and every tab on either server hears each once, in order', async () => {
    const local = await tab(a.url);
    const remote = await tab(b.url);
    const before = await streamEntries();
    for (let n = 0; n < 300; n++) a.io.to('members').emit('n', n);
    const all = Array.from({ length: 300 }, (_, n) => n);
    await until(() => local.heard.length >= 300 && remote.heard.length >= 300, '300 events on both servers');
    await new Promise((r) => setTimeout(r, 100));
    expect(local.heard).toEqual(all);
    expect(remote.heard).toEqual(all);
    const after = await streamEntries();
    expect(after.single - before.single).toBe(0);
    // At most MAX_BROADCASTS_PER_ENTRY (100) in an entry.
    expect(after.batches.slice(before.batches.length)).toEqual([100, 100, 100]);
    // Each packet has its own offset: the entry's id and its place in the batch.
    expect(remote.offsets[0]).toMatch(/^[0-9]+-[0-9]+:0$/);
    expect(remote.offsets[99]).toBe(`${remote.offsets[0].split(':')[0]}:99`);
    expect(remote.offsets[100]).toMatch(/^[0-9]+-[0-9]+:0$/);
    local.socket.disconnect();
    remote.socket.disconnect();
  });

  for (const [how, server] of [
    ['the streams adapter', () => b],
    ['one GETDEL', () => c],
  ] as const)
    it(`gives a tab that comes back the rest of a batch it heard part of and what came after, once each (its session read by ${how})`, async () => {
      const t = await tab(server().url);
      for (let n = 0; n < 5; n++) a.io.to('members').emit('n', n);
      await until(() => t.heard.length >= 5, 'the first batch');
      // The connection drops (not a disconnect the tab asked for: its session is kept) ...
      const serverSide = [...server().io.sockets.sockets.values()].find((s) => s.id === t.socket.id);
      const dropped = new Promise((r) => serverSide?.once('disconnect', r));
      t.socket.io.engine.close();
      await dropped;
      // ... as if it had heard only the first three of the batch (a drop in the middle of its writes) ...
      (t.socket as unknown as { _lastOffset: string })._lastOffset = t.offsets[2];
      // ... and more is sent while it is away.
      for (let n = 5; n < 8; n++) a.io.to('members').emit('n', n);
      await new Promise((r) => setTimeout(r, 200));
      t.heard.length = 0;
      t.socket.connect();
      await new Promise<void>((r) => t.socket.once('connect', () => r()));
      expect(t.socket.recovered).toBe(true);
      await until(() => t.heard.length >= 5, 'the missed events');
      await new Promise((r) => setTimeout(r, 100));
      expect(t.heard).toEqual([3, 4, 5, 6, 7]);
    });

  it('connects afresh a tab whose session is no longer kept (its session read by one GETDEL), and restores a session once', async () => {
    const t = await tab(c.url);
    const firstId = t.socket.id;
    const drop = async () => {
      const serverSide = [...c.io.sockets.sockets.values()].find((s) => s.id === t.socket.id);
      const dropped = new Promise((r) => serverSide?.once('disconnect', r));
      t.socket.io.engine.close();
      await dropped;
    };
    a.io.to('members').emit('n', 1);
    await until(() => t.heard.length >= 1, 'an event with an offset');
    await drop();
    t.socket.connect();
    await new Promise<void>((r) => t.socket.once('connect', () => r()));
    expect(t.socket.recovered).toBe(true);
    expect(t.socket.id).toBe(firstId);
    // Gone from Redis (another instance took it, or it expired): a new session, not an error.
    await drop();
    const keys = await clients[0].keys(`${prefix}sio:session:*`);
    expect(keys.length).toBeGreaterThan(0);
    await clients[0].del(...keys);
    t.socket.connect();
    await new Promise<void>((r) => t.socket.once('connect', () => r()));
    expect(t.socket.recovered).toBe(false);
    expect(t.socket.id).not.toBe(firstId);
    t.socket.disconnect();
  });
  for (const backTo of ['the same server', 'the other server'] as const) {
    it(`gives a tab of the sending server that comes back to ${backTo} exactly what it missed, batches of both servers included`, async () => {
      const t = await tab(a.url);
      for (let n = 0; n < 5; n++) a.io.to('members').emit('n', n);
      await until(() => t.heard.length >= 5, 'the first batch');
      await new Promise((r) => setTimeout(r, 100));
      const serverSide = [...a.io.sockets.sockets.values()].find((s) => s.id === t.socket.id);
      const dropped = new Promise((r) => serverSide?.once('disconnect', r));
      t.socket.io.engine.close();
      await dropped;
      // As if it had heard only the first three of the batch.
      (t.socket as unknown as { _lastOffset: string })._lastOffset = t.offsets[2];
      // More from both servers while it is away.
      for (let n = 5; n < 8; n++) a.io.to('members').emit('n', n);
      await new Promise((r) => setTimeout(r, 50));
      for (let n = 8; n < 10; n++) b.io.to('members').emit('n', n);
      await new Promise((r) => setTimeout(r, 200));
      t.heard.length = 0;
      if (backTo === 'the other server') (t.socket.io as unknown as { uri: string }).uri = b.url;
      t.socket.connect();
      await new Promise<void>((r) => t.socket.once('connect', () => r()));
      expect(t.socket.recovered).toBe(true);
      const on = backTo === 'the other server' ? b : a;
      expect([...on.io.sockets.sockets.values()].some((s) => s.id === t.socket.id)).toBe(true);
      await until(() => t.heard.length >= 7, 'the missed events');
      await new Promise((r) => setTimeout(r, 100));
      expect(t.heard).toEqual([3, 4, 5, 6, 7, 8, 9]);
      t.socket.disconnect();
    });
  }

  it('gives tabs on both servers the same data as sent', async () => {
    const sent = {
      text: 'é "quoted" \\ back\nline 💬',
      list: [1, { nested: null, flag: true }],
      empty: [] as unknown[],
    };
    const heard = (url: string) =>
      tab(url).then((t) => {
        const got: unknown[][] = [];
        t.socket.on('obj', (...args: unknown[]) => got.push(args));
        return { ...t, got };
      });
    const local = await heard(a.url);
    const remote = await heard(b.url);
    a.io.to('members').emit('obj', sent, 'second', 3);
    a.io.to('members').emit('obj');
    await until(() => local.got.length >= 2 && remote.got.length >= 2, 'the objects on both servers');
    for (const t of [local, remote]) {
      expect(t.got[0].slice(0, 3)).toEqual([sent, 'second', 3]);
      expect(t.got[0]).toHaveLength(4);
      expect(t.got[1]).toHaveLength(1);
      t.socket.disconnect();
    }
  });
});
