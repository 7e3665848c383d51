// Upstream-channel instances on bare HTTP servers with an in-memory token table, for the
// realtime-channel suites: `start()` attaches one, `open()` connects a socket; both are closed
// after each test of the file that calls realtimeInstances().
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { attachRealtime, type RealtimeHandle, type RealtimeOptions } from '../../src/modules/realtime';
import { openSocket, type TestSocket } from './realtime-socket';

/** The tokens every instance accepts: two of person 1, one of person 2. */
export const TOKENS: Record<string, { personId: number; expiresAt?: number }> = {
  'token-a': { personId: 1 },
  'token-a2': { personId: 1 },
  'token-b': { personId: 2 },
};

export interface Instance {
  url: string;
  realtime: RealtimeHandle;
  server: Server;
}

export function realtimeInstances() {
  const instances: Instance[] = [];
  const sockets: TestSocket[] = [];

  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((s) => s.close()));
    for (const i of instances.splice(0)) {
      await i.realtime.close();
      await new Promise((resolve) => i.server.close(resolve));
    }
  });

  return {
    async start(options: Partial<RealtimeOptions> = {}): Promise<Instance> {
      const server = createServer((_req, res) => res.end());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const realtime = await attachRealtime(server, {
        verifyToken: async (token) => TOKENS[token] ?? null,
        ...options,
      });
      const instance = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, realtime, server };
      instances.push(instance);
      return instance;
    },
    async open(url: string, token: string, personId: number): Promise<TestSocket> {
      const s = await openSocket(url, token, personId);
      sockets.push(s);
      return s;
    },
  };
}
