import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import type { UpstreamMessage } from '@pm/shared';
import { createLogger } from '../logger';
import { UpstreamConnection, type UpstreamHandlers } from '../upstream-connection';

// A real WebSocket peer standing in for the api's channel: the connection under test is real.
let server: Server | null = null;
let connection: UpstreamConnection | null = null;

afterEach(async () => {
  connection?.close();
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(null)));
  server = null;
});

async function peer(
  accept: boolean,
  onSocket: (ws: WebSocket, path: string) => void = () => undefined,
): Promise<string> {
  server = createServer();
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (!accept) return socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
    wss.handleUpgrade(req, socket, head, (ws) => onSocket(ws, req.url ?? ''));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

function recorder() {
  const calls: { open: boolean[]; messages: UpstreamMessage[]; revoked: string[]; closed: number[] } = {
    open: [],
    messages: [],
    revoked: [],
    closed: [],
  };
  const handlers: UpstreamHandlers = {
    onOpen: (r) => calls.open.push(r),
    onMessage: (m) => calls.messages.push(m),
    onRevoked: (reason) => calls.revoked.push(reason),
    onClosed: (code) => calls.closed.push(code),
  };
  return { calls, handlers };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

describe('UpstreamConnection', () => {
  it('when it opens, then it connects to /{token}/{personId} and sends heartbeats', async () => {
    const received: string[] = [];
    let path = '';
    const apiUrl = await peer(true, (ws, p) => {
      path = p;
      ws.on('message', (m) => received.push(m.toString()));
    });
    const { calls, handlers } = recorder();
    connection = new UpstreamConnection({
      apiUrl,
      token: 'tok',
      personId: 7,
      logger: createLogger('silent'),
      handlers,
      heartbeatMs: 20,
    });
    connection.open();
    await until(() => received.length >= 2);
    expect(path).toBe('/tok/7');
    expect(JSON.parse(received[0])).toMatchObject({ channelType: 'heartbeat' });
    expect(calls.open).toEqual([false]);
  });

  it('when the api drops it abnormally (1006), then it reconnects and reports the reconnection', async () => {
    let sockets = 0;
    const apiUrl = await peer(true, (ws) => {
      sockets++;
      if (sockets === 1) setTimeout(() => ws.terminate(), 20);
    });
    const { calls, handlers } = recorder();
    connection = new UpstreamConnection({
      apiUrl,
      token: 't',
      personId: 1,
      logger: createLogger('silent'),
      handlers,
      reconnectDelayMs: 20,
    });
    connection.open();
    await until(() => calls.open.length === 2);
    expect(calls.open).toEqual([false, true]);
    expect(calls.closed).toEqual([]);
  });

  it('when the api closes with 4001, then the token is reported revoked and nothing reconnects', async () => {
    let sockets = 0;
    const apiUrl = await peer(true, (ws) => {
      sockets++;
      ws.close(4001, 'token revoked');
    });
    const { calls, handlers } = recorder();
    connection = new UpstreamConnection({
      apiUrl,
      token: 't',
      personId: 1,
      logger: createLogger('silent'),
      handlers,
      reconnectDelayMs: 10,
    });
    connection.open();
    await until(() => calls.revoked.length === 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(calls.revoked).toEqual(['token revoked']);
    expect(sockets).toBe(1);
  });

  it('when the upgrade is refused with 401, then the token is reported revoked', async () => {
    const apiUrl = await peer(false);
    const { calls, handlers } = recorder();
    connection = new UpstreamConnection({
      apiUrl,
      token: 't',
      personId: 1,
      logger: createLogger('silent'),
      handlers,
      reconnectDelayMs: 10,
    });
    connection.open();
    await until(() => calls.revoked.length === 1);
    expect(calls.open).toEqual([]);
  });

  it('when the api sends something that is not a valid message, then it is dropped and later messages still arrive', async () => {
    const apiUrl = await peer(true, (ws) => {
      ws.send('not json');
      ws.send(JSON.stringify({ nothing: true }));
      ws.send(JSON.stringify({ channelType: 9, dataId: 3 }));
    });
    const { calls, handlers } = recorder();
    connection = new UpstreamConnection({ apiUrl, token: 't', personId: 1, logger: createLogger('silent'), handlers });
    connection.open();
    await until(() => calls.messages.length === 1);
    expect(calls.messages[0]).toMatchObject({ channelType: 9, dataId: 3 });
  });

  it('when the api stays unreachable and the attempts run out, then it closes for good', async () => {
    // The api accepts once, then goes away: every reconnect attempt is refused.
    const apiUrl = await peer(true, (ws) => {
      server!.close();
      ws.terminate();
    });
    const { calls, handlers } = recorder();
    connection = new UpstreamConnection({
      apiUrl,
      token: 't',
      personId: 1,
      logger: createLogger('silent'),
      handlers,
      reconnectDelayMs: 5,
      maxAttempts: 3,
    });
    connection.open();
    await until(() => calls.closed.length === 1);
    expect(calls.closed).toEqual([1006]);
  });
});
