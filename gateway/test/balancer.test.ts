// The test kit's least-connections balancer (gateway/test/kit/balancer.ts), which the gateway bench's
// two-gateway mode runs in front of two gateway processes (README, issue 34, "Part 17"): a killed
// gateway's connections go to the one still up, and no gateway gets more than `maxPerBackend`.
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { leastConnections, type Balancer } from './kit/balancer';

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
});
