// One socket write per tab per turn of the event loop (issue 31): frames sent to a tab in one turn
// wait in its corked socket until the turn ends and then leave together, each still its own
// socket.io event, in order; the next turn writes again.
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo, Socket as NetSocket } from 'node:net';
import { Server, type Socket } from 'socket.io';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayServer } from '../gateway-io';
import { batchTabWrites } from '../tab-write-batching';

let http: HttpServer | undefined;
let server: Server | undefined;
let client: ClientSocket | undefined;
afterEach(async () => {
  client?.close();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = http = client = undefined;
});

/** A socket.io server with batched tab writes and one tab connected over WebSocket (or polling first). */
async function tab(transports: ('polling' | 'websocket')[]): Promise<{ tabSocket: Socket; client: ClientSocket }> {
  http = createServer();
  server = new Server(http);
  batchTabWrites(server as unknown as GatewayServer);
  const joined = new Promise<Socket>((r) => server!.on('connection', r));
  await new Promise<void>((r) => http!.listen(0, '127.0.0.1', r));
  const { port } = http.address() as AddressInfo;
  client = connect(`http://127.0.0.1:${port}`, { transports, forceNew: true, reconnection: false });
  const tabSocket = await joined;
  // Polling first: the tab is batched once the server has switched it to WebSocket.
  if (tabSocket.conn.transport.name !== 'websocket')
    await new Promise<void>((r) => tabSocket.conn.once('upgrade', () => r()));
  return { tabSocket, client };
}

const rawOf = (s: Socket): NetSocket =>
  (s.conn as unknown as { transport: { socket: { _socket: NetSocket } } }).transport.socket._socket;

describe.each([['websocket'], ['polling', 'websocket']] as const)('tab writes over %s', (...transports) => {
  it('when several frames go to a tab in one turn, then its socket stays corked until the turn ends and all arrive in order', async () => {
    const { tabSocket, client } = await tab([...transports]);
    const got: number[] = [];
    let arrived: () => void = () => undefined;
    client.on('n', (n: number) => {
      got.push(n);
      if (got.length % 100 === 0) arrived();
    });
    const raw = rawOf(tabSocket);
    for (const from of [0, 100]) {
      const all = new Promise<void>((r) => (arrived = r));
      for (let i = from; i < from + 100; i++) tabSocket.emit('n', i);
      // Nothing written yet: the frames wait for the end of the turn.
      expect(raw.writableCorked).toBe(1);
      expect(raw.writableLength).toBeGreaterThan(0);
      await all;
      await new Promise((r) => setImmediate(r));
      expect(raw.writableCorked).toBe(0);
    }
    expect(got).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });
});
