// The test kit's least-connections balancer (gateway/test/kit/balancer.ts), which the gateway bench's
// two-gateway mode runs in front of two gateway processes (README, issue 34, "Part 17"): a killed
// gateway's connections go to the one still up, and no gateway gets more than `maxPerBackend`.
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { leastConnections, QUEUE_TIMEOUT_ANSWER, type Balancer } from './kit/balancer';

/** A TCP server that answers every line with its own name: which backend a connection reached. */
async function namedServer(name: string): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('data', () => s.write(`${name}\n`));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Connects through the balancer, says hello, and answers the name of the backend that replied (null: closed). */
function whoAnswers(url: string): Promise<{ name: string | null; socket: Socket }> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write('hello\n'));
    socket.once('data', (d) => resolve({ name: d.toString().trim(), socket }));
    socket.once('close', () => resolve({ name: null, socket }));
    socket.on('error', () => undefined);
  });
}

const closers: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('least-connections balancer', () => {
  it('when a gateway refuses connections, then they go to the one still up', async () => {
    const a = await namedServer('a');
    closers.push(() => a.close());
    const b = await namedServer('b');
    // b is gone (killed): its port refuses.
    await b.close();
    const balancer: Balancer = await leastConnections([a.url, b.url]);
    closers.push(() => balancer.close());
    const answers = [];
    for (let i = 0; i < 6; i++) {
      const { name, socket } = await whoAnswers(balancer.url);
      closers.push(() => void socket.destroy());
      answers.push(name);
    }
    expect(answers).toEqual(['a', 'a', 'a', 'a', 'a', 'a']);
    expect(balancer.refused()).toBe(0);
  });

  it('when connections are relayed, then routes() names each one by its client end and its gateway, until it closes', async () => {
    const a = await namedServer('a');
    closers.push(() => a.close());
    const b = await namedServer('b');
    closers.push(() => b.close());
    const balancer = await leastConnections([a.url, b.url]);
    closers.push(() => balancer.close());
    const seen: { name: string | null; end: string; socket: Socket }[] = [];
    for (let i = 0; i < 4; i++) {
      const { name, socket } = await whoAnswers(balancer.url);
      closers.push(() => void socket.destroy());
      seen.push({ name, end: `${socket.localAddress}:${socket.localPort}`, socket });
    }
    const routes = new Map(balancer.routes());
    expect(routes.size).toBe(4);
    for (const s of seen) expect(routes.get(s.end)).toBe(s.name === 'a' ? a.url : b.url);
    // A closed connection is no longer listed.
    seen[0].socket.destroy();
    await new Promise((r) => setTimeout(r, 100));
    expect(new Map(balancer.routes()).has(seen[0].end)).toBe(false);
    expect(balancer.routes()).toHaveLength(3);
  });

  it('when every gateway holds maxPerBackend connections, then the next one is closed at once and counted', async () => {
    const a = await namedServer('a');
    closers.push(() => a.close());
    const b = await namedServer('b');
    closers.push(() => b.close());
    const balancer = await leastConnections([a.url, b.url], { maxPerBackend: 2 });
    closers.push(() => balancer.close());
    const names = [];
    for (let i = 0; i < 5; i++) {
      const { name, socket } = await whoAnswers(balancer.url);
      closers.push(() => void socket.destroy());
      names.push(name);
    }
    expect(names.slice(0, 4).sort()).toEqual(['a', 'a', 'b', 'b']);
    expect(names[4]).toBeNull();
    expect(balancer.refused()).toBe(1);
    expect(balancer.open()).toEqual({ [a.url]: 2, [b.url]: 2 });
  });

  it('when a gateway has maxInFlightPerBackend handshakes unanswered, then the next connection waits in the balancer, not at the gateway, and goes on once one is answered', async () => {
    const slow = await heldServer();
    closers.push(() => slow.close());
    const balancer = await leastConnections([slow.url], { maxInFlightPerBackend: 1 });
    closers.push(() => balancer.close());
    const first = sayHello(balancer.url);
    closers.push(() => void first.socket.destroy());
    await until(() => slow.accepted() === 1);
    const second = sayHello(balancer.url);
    closers.push(() => void second.socket.destroy());
    await until(() => balancer.queued() === 1);
    // The gateway has not seen the second connection: it waits in the balancer's queue.
    expect(slow.accepted()).toBe(1);
    await slow.answerAll();
    expect(await first.reply).toBe('held');
    await until(() => slow.accepted() === 2);
    expect(balancer.queued()).toBe(0);
    await slow.answerAll();
    expect(await second.reply).toBe('held');
    expect(balancer.refused()).toBe(0);
  });

  it('when a queued client gives up, then it leaves the queue and no gateway ever sees it', async () => {
    const slow = await heldServer();
    closers.push(() => slow.close());
    const balancer = await leastConnections([slow.url], { maxInFlightPerBackend: 1 });
    closers.push(() => balancer.close());
    const first = sayHello(balancer.url);
    closers.push(() => void first.socket.destroy());
    await until(() => slow.accepted() === 1);
    const gone = sayHello(balancer.url);
    await until(() => balancer.queued() === 1);
    gone.socket.destroy();
    await until(() => balancer.queueAbandoned() === 1);
    const third = sayHello(balancer.url);
    closers.push(() => void third.socket.destroy());
    await until(() => balancer.queued() === 1);
    await slow.answerAll();
    await first.reply;
    await until(() => slow.accepted() === 2);
    await slow.answerAll();
    expect(await third.reply).toBe('held');
    // The client that left cost the gateway nothing: two connections reached it, not three.
    expect(slow.accepted()).toBe(2);
  });

  it('when the gateway with fewer connections has no free handshake slot, then a new connection waits for it rather than going to the one with more (leastconn)', async () => {
    // b holds two connections (a full gateway's tabs); a started later and is in a handshake.
    const b = await namedServer('b');
    closers.push(() => b.close());
    const balancer = await leastConnections([b.url], { maxInFlightPerBackend: 1 });
    closers.push(() => balancer.close());
    for (let i = 0; i < 2; i++) {
      const { name, socket } = await whoAnswers(balancer.url);
      closers.push(() => void socket.destroy());
      expect(name).toBe('b');
    }
    const a = await heldServer();
    closers.push(() => a.close());
    balancer.add(a.url);
    const first = sayHello(balancer.url);
    closers.push(() => void first.socket.destroy());
    await until(() => a.accepted() === 1);
    // a's one slot is busy, b's is free, but a has fewer connections (1 against 2): the next waits for a.
    const second = sayHello(balancer.url);
    closers.push(() => void second.socket.destroy());
    await until(() => balancer.queued() === 1);
    expect(balancer.open()).toEqual({ [b.url]: 2, [a.url]: 1 });
    await a.answerAll();
    expect(await first.reply).toBe('held');
    await until(() => a.accepted() === 2);
    await a.answerAll();
    expect(await second.reply).toBe('held');
    expect(balancer.open()).toEqual({ [b.url]: 2, [a.url]: 2 });
    expect(balancer.refused()).toBe(0);
  });

  it('when two gateways have the same connections, then a connection goes to the one with a free handshake slot', async () => {
    const a = await heldServer();
    closers.push(() => a.close());
    const b = await heldServer();
    closers.push(() => b.close());
    const balancer = await leastConnections([a.url, b.url], { maxInFlightPerBackend: 1 });
    closers.push(() => balancer.close());
    const first = sayHello(balancer.url);
    closers.push(() => void first.socket.destroy());
    await until(() => a.accepted() + b.accepted() === 1);
    const second = sayHello(balancer.url);
    closers.push(() => void second.socket.destroy());
    await until(() => a.accepted() === 1 && b.accepted() === 1);
    expect(balancer.queued()).toBe(0);
  });

  it('when a connection waits longer than queueTimeoutMs, then it is answered 503 with Retry-After and closed', async () => {
    const slow = await heldServer();
    closers.push(() => slow.close());
    const balancer = await leastConnections([slow.url], { maxInFlightPerBackend: 1, queueTimeoutMs: 200 });
    closers.push(() => balancer.close());
    const first = sayHello(balancer.url);
    closers.push(() => void first.socket.destroy());
    await until(() => slow.accepted() === 1);
    const late = sayHello(balancer.url);
    closers.push(() => void late.socket.destroy());
    expect(await late.reply).toBe(QUEUE_TIMEOUT_ANSWER);
    expect(late.reply).resolves.toMatch(/^HTTP\/1\.1 503 .*\r\nRetry-After: 1\r\n/s);
    expect(balancer.queueTimeouts()).toBe(1);
    expect(slow.accepted()).toBe(1);
  });

  it('with handshakeExchanges 2, then a slot is held until the gateway answers the client a second time', async () => {
    const slow = await heldServer();
    closers.push(() => slow.close());
    const balancer = await leastConnections([slow.url], { maxInFlightPerBackend: 1, handshakeExchanges: 2 });
    closers.push(() => balancer.close());
    const first = sayHello(balancer.url);
    closers.push(() => void first.socket.destroy());
    await until(() => slow.accepted() === 1);
    const second = sayHello(balancer.url);
    closers.push(() => void second.socket.destroy());
    await until(() => balancer.queued() === 1);
    await slow.answerAll();
    await first.reply;
    // One exchange (an upgrade's 101): still in its handshake, the second connection still waits.
    first.socket.write('connect\n');
    await until(() => slow.heard() === 2);
    expect(balancer.queued()).toBe(1);
    expect(slow.accepted()).toBe(1);
    await slow.answerAll();
    await until(() => slow.accepted() === 2);
    expect(balancer.queued()).toBe(0);
  });
});

/** A TCP server that holds every line it hears until `answerAll()` answers them ("held"). */
async function heldServer() {
  const sockets = new Set<Socket>();
  let waiting: Socket[] = [];
  let accepted = 0;
  let heard = 0;
  const server = createServer((s) => {
    accepted++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
    s.on('data', () => {
      heard++;
      waiting.push(s);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accepted: () => accepted,
    heard: () => heard,
    /** Answers every line heard, once at least one has arrived (the balancer relays a client's line a turn or more after the connection). */
    answerAll: async () => {
      await until(() => waiting.length > 0);
      for (const s of waiting.splice(0)) s.write('held');
      waiting = [];
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Connects through the balancer and says hello; `reply` is everything the other side first sent (null: closed with nothing). */
function sayHello(url: string): { socket: Socket; reply: Promise<string | null> } {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1', () => socket.write('hello\n'));
  socket.on('error', () => undefined);
  let text = '';
  const reply = new Promise<string | null>((resolve) => {
    socket.on('data', (d) => {
      text += d.toString();
      // A held server's answer is one write; the 503 comes whole, then the close.
      if (text === 'held') resolve(text);
    });
    socket.once('close', () => resolve(text || null));
  });
  return { socket, reply };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}
