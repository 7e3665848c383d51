// The proxy's pool of kept-alive connections to the api (issue 31): an idle pooled connection is
// closed by the gateway before the api's keep-alive timeout would close it under a call (a 502),
// and a call in progress is never cut by that idle timeout.
import { createServer, request, type Agent, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { idleClosingAgent } from '../proxy';

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

/** An api stand-in that keeps idle connections far longer than the agent, answering after `delayMs`. */
async function api(delayMs = 0): Promise<{ port: number; closedByPeer: Promise<Socket> }> {
  let peerClosed!: (s: Socket) => void;
  const closedByPeer = new Promise<Socket>((r) => (peerClosed = r));
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => setTimeout(() => res.end('{"code":200}'), delayMs));
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket: Socket) => socket.on('end', () => peerClosed(socket)));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, closedByPeer };
}

function call(agent: Agent, port: number): Promise<number> {
  return new Promise((done, fail) => {
    const req = request({ agent, host: '127.0.0.1', port, method: 'POST', path: '/x' }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    });
    req.on('error', fail);
    req.end('{}');
  });
}

describe('idleClosingAgent', () => {
  it('when a pooled connection has been idle, then the gateway closes it, not the api', async () => {
    const { port, closedByPeer } = await api();
    const agent = idleClosingAgent({ keepAlive: true }, 50);
    expect(await call(agent, port)).toBe(200);
    // The api keeps it for a minute: an end seen now was sent by the agent.
    await closedByPeer;
    agent.destroy();
  });

  it('when a call takes longer than the idle time, then it is answered on its kept-alive socket', async () => {
    const { port } = await api(300);
    const agent = idleClosingAgent({ keepAlive: true }, 50);
    expect(await call(agent, port)).toBe(200);
    expect(await call(agent, port)).toBe(200);
    agent.destroy();
  });
});
