// A load balancer in front of gateway instances, as a deployment puts one: TCP, each new connection
// to the instance with the fewest open connections through it (nginx's least_conn). Instances can be
// added while it runs (a gateway started later). Used by gateway/test/rebalance.redis.test.ts and,
// in processes of their own, by the gateway bench's two-gateway mode (gateway/bench/balancer-worker.ts).
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Balancer {
  url: string;
  /** Sends new connections to this gateway too (its http URL). */
  add(gatewayUrl: string): void;
  /** Open connections through the balancer to each gateway, by URL. */
  open(): Record<string, number>;
  /** Client connections closed at once: every gateway down or full (`maxPerBackend`). */
  refused(): number;
  close(): Promise<void>;
}

export interface BalancerOptions {
  /** The port to listen on (0: a free one). */
  port?: number;
  /**
   * At most this many open connections to one gateway (nginx's `max_conns`, HAProxy's `maxconn`);
   * a connection finding every gateway full is closed at once and its client tries again. Unbounded
   * unless given: the bench bounds it by what a gateway process may hold open here.
   */
  maxPerBackend?: number;
  /** How long a gateway that refused a connection is passed over (nginx's `fail_timeout`), ms. */
  downMs?: number;
  /**
   * Connect to the gateway from the client's own address (a transparent balancer, HAProxy's
   * `usesrc clientip`; possible on loopback, where every 127.x address is local), so the gateway's
   * limits per address see the browsers' addresses, not the balancer's. Off unless asked for.
   */
  keepClientAddress?: boolean;
}

interface Backend {
  host: string;
  port: number;
  open: number;
  /** Until when it is passed over after a refused connection (0: not). */
  downUntil: number;
}

/**
 * A gateway that refuses a connection (killed, not yet listening) is passed over for `downMs` and
 * the connection goes to the next one with the fewest (nginx's `proxy_next_upstream error`): the
 * client sees one connection, not a refusal, while another instance is up.
 */
export async function leastConnections(gatewayUrls: string[], options: BalancerOptions = {}): Promise<Balancer> {
  const maxPerBackend = options.maxPerBackend ?? Infinity;
  const downMs = options.downMs ?? 1_000;
  const backends = new Map<string, Backend>();
  let refused = 0;
  const add = (url: string) => {
    const u = new URL(url);
    backends.set(url, { host: u.hostname, port: Number(u.port), open: 0, downUntil: 0 });
  };
  gatewayUrls.forEach(add);
  const sockets = new Set<Socket>();

  /** The gateway with the fewest open connections that is not full, not tried yet, and up (else any not tried). */
  const choose = (tried: Set<Backend>): Backend | undefined => {
    const now = Date.now();
    const open = [...backends.values()].filter((b) => !tried.has(b) && b.open < maxPerBackend);
    const up = open.filter((b) => b.downUntil <= now);
    return (up.length > 0 ? up : open).sort((a, b) => a.open - b.open)[0];
  };

  const server = createServer((client) => {
    // Nothing is read from the client until its gateway's connection is open, so a refused
    // connection can go to the next gateway without losing the request's first bytes.
    client.pause();
    sockets.add(client);
    const tried = new Set<Backend>();
    let backend: Backend | undefined;
    let upstream: Socket | undefined;
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      if (backend) backend.open--;
      client.destroy();
      upstream?.destroy();
      sockets.delete(client);
      if (upstream) sockets.delete(upstream);
    };
    client.on('error', end);
    client.on('close', end);
    const tryNext = () => {
      if (done) return;
      backend = choose(tried);
      if (!backend) {
        refused++;
        end();
        return;
      }
      tried.add(backend);
      backend.open++;
      const target = backend;
      const socket = connect({
        port: target.port,
        host: target.host,
        ...(options.keepClientAddress && client.remoteAddress && { localAddress: client.remoteAddress }),
      });
      upstream = socket;
      sockets.add(socket);
      const refusedHere = () => {
        // Refused before it connected: pass this gateway over for a while and try another.
        if (done) return;
        target.open--;
        target.downUntil = Date.now() + downMs;
        sockets.delete(socket);
        socket.destroy();
        backend = undefined;
        upstream = undefined;
        tryNext();
      };
      socket.once('error', refusedHere);
      socket.once('connect', () => {
        socket.off('error', refusedHere);
        socket.on('error', end);
        socket.on('close', end);
        client.pipe(socket).pipe(client);
        client.resume();
      });
    };
    tryNext();
  });
  // A balancer's listen queue as deep as the system allows (Node's default is 511): the bench opens
  // thousands of connections at once through it.
  await new Promise<void>((resolve) =>
    server.listen({ port: options.port ?? 0, host: '127.0.0.1', backlog: 8192 }, resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    add,
    open: () => Object.fromEntries([...backends].map(([url, b]) => [url, b.open])),
    refused: () => refused,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
