import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { Encoder } from 'socket.io-parser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CompactRecoveryAdapter } from '../recovery-adapter';

// A real socket.io server using the adapter, and real socket.io clients over loopback.
const servers: Server[] = [];
const clients: Socket[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.disconnect();
  for (const s of servers.splice(0)) await s.close();
});

async function start(windowMs: number): Promise<{ io: Server; url: string }> {
  const http = createServer();
  const io = new Server(http, {
    connectionStateRecovery: { maxDisconnectionDuration: windowMs, skipMiddlewares: true },
    adapter: CompactRecoveryAdapter,
  });
  io.on('connection', (socket) => {
    const room = socket.handshake.auth.room as string;
    if (!socket.recovered) void socket.join(room);
  });
  servers.push(io);
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  return { io, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
}

interface Tab {
  socket: Socket;
  received: number[];
}

async function tab(url: string, room: string): Promise<Tab> {
  const socket = connect(url, { auth: { room }, transports: ['websocket'], forceNew: true });
  clients.push(socket);
  const received: number[] = [];
  socket.on('news', (n: number) => received.push(n));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, received };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

/** Drops the tab's connection (as a network blip does), runs `meanwhile`, then reconnects it. */
async function blip(t: Tab, io: Server, meanwhile: () => Promise<void> | void): Promise<void> {
  const count = io.of('/').sockets.size;
  t.socket.io.reconnection(false);
  t.socket.io.engine.close();
  await until(() => io.of('/').sockets.size === count - 1);
  await meanwhile();
  const back = new Promise<void>((resolve) => t.socket.once('connect', () => resolve()));
  t.socket.connect();
  await back;
}

describe('CompactRecoveryAdapter', () => {
  it('when a tab drops for a moment, then on reconnecting it gets exactly what its rooms missed, in order', async () => {
    const { io, url } = await start(60_000);
    const a = await tab(url, 'person:1');
    const b = await tab(url, 'person:2');
    io.to('person:1').emit('news', 1);
    await until(() => a.received.length === 1);

    await blip(a, io, async () => {
      io.to('person:1').emit('news', 2);
      io.to('person:2').emit('news', 99);
      io.to('person:1').emit('news', 3);
      io.to(['person:1', 'person:2']).except('person:1').emit('news', 98);
      io.to(['person:2', 'person:1']).emit('news', 4);
      await until(() => b.received.length === 3);
    });

    await until(() => a.received.length === 4);
    expect(a.received).toEqual([1, 2, 3, 4]);
    expect(a.socket.recovered).toBe(true);
    // And it goes on receiving live events afterwards.
    io.to('person:1').emit('news', 5);
    await until(() => a.received.length === 5);
    expect(b.received).toEqual([99, 98, 4]);
  });

  it('when a tab comes back after the window, then it is not recovered and starts afresh', async () => {
    const { io, url } = await start(300);
    const a = await tab(url, 'person:1');
    io.to('person:1').emit('news', 1);
    await until(() => a.received.length === 1);

    await blip(a, io, async () => {
      io.to('person:1').emit('news', 2);
      await new Promise((r) => setTimeout(r, 700));
    });

    expect(a.socket.recovered).toBe(false);
    await new Promise((r) => setTimeout(r, 100));
    expect(a.received).toEqual([1]);
  });

  it('when the server restarted, then an offset it handed out earlier restores nothing', async () => {
    const lastOffset = (t: Tab) => (t.socket as unknown as { _lastOffset: string })._lastOffset;
    const first = await start(60_000);
    const a = await tab(first.url, 'person:1');
    first.io.to('person:1').emit('news', 1);
    await until(() => a.received.length === 1);
    expect(lastOffset(a)).toMatch(/^[0-9a-f]{8}\.0$/);

    // A second server (as after a restart) numbers its packets from 0 again.
    const second = await start(60_000);
    const b = await tab(second.url, 'person:1');
    second.io.to('person:1').emit('news', 7);
    await until(() => b.received.length === 1);
    second.io.to('person:1').emit('news', 8);
    const adapter = second.io.of('/').adapter;
    const session = { sid: 's1', pid: 'p1', rooms: ['person:1'], data: {} };

    adapter.persistSession(session);
    expect(await adapter.restoreSession('p1', lastOffset(a))).toBeNull();
    adapter.persistSession(session);
    const restored = await adapter.restoreSession('p1', lastOffset(b));
    expect(restored?.missedPackets.map((p) => p.slice(0, 2))).toEqual([['news', 8]]);
  });

  it('when an event is broadcast, then its JSON is made once and tabs of the root and another namespace get it whole', async () => {
    const { io, url } = await start(60_000);
    const payload = { topic: 'chat', text: '你好 "quoted" \\ line\nbreak', n: [1, 2.5, null], nested: { ok: true } };
    const onRoot = await tab(url, 'person:1');
    const got: unknown[] = [];
    onRoot.socket.on('chat', (p: unknown) => got.push(p));
    // A second namespace with the same adapter: its packets carry "/ns," before the JSON.
    const ns = io.of('/ns');
    ns.on('connection', (socket) => void socket.join('person:1'));
    const other = connect(`${url}/ns`, { transports: ['websocket'], forceNew: true });
    clients.push(other);
    const gotOther: unknown[] = [];
    other.on('chat', (p: unknown) => gotOther.push(p));
    await new Promise<void>((resolve) => other.once('connect', () => resolve()));

    const encode = vi.spyOn(Encoder.prototype, 'encode');
    try {
      io.to('person:1').emit('chat', payload);
      ns.to('person:1').emit('chat', payload);
      await until(() => got.length === 1 && gotOther.length === 1);
      // socket.io's own encoder was not asked: the wire text came from the log's JSON.
      expect(encode).not.toHaveBeenCalled();
    } finally {
      encode.mockRestore();
    }
    expect(got).toEqual([payload]);
    expect(gotOther).toEqual([payload]);
    // Packets the log does not keep (with an ack, volatile) are still socket.io's to encode.
    io.to('person:1').volatile.emit('news', 6);
    await until(() => onRoot.received.includes(6));
  });
});
