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
  /** Connections waiting in the balancer's own queue now (`maxInFlightPerBackend`). */
  queued(): number;
  /** Connections answered 503 after waiting `queueTimeoutMs` in the queue. */
  queueTimeouts(): number;
  /** Queued connections whose client left before a gateway took them (no gateway did any work for them). */
  queueAbandoned(): number;
  /** Each relayed client connection (`address:port` as the balancer sees the client) and its gateway's URL. */
  routes(): [string, string][];
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
  /**
   * At most this many handshakes in flight to one gateway (HAProxy's `maxconn` per server with its
   * queue): a connection beyond it waits in the balancer's own queue, not in the gateway's accept
   * queue until the gateway with the fewest connections has a free slot. A client that gives up
   * while queued leaves the queue and costs no gateway anything. Unbounded unless given. A gateway
   * that takes its handshakes slowly holds its connections back: they wait for it (at most
   * `queueTimeoutMs`) even while another gateway has free slots.
   */
  maxInFlightPerBackend?: number;
  /**
   * A handshake is over after this many exchanges: the client speaks, the gateway answers (1: the
   * gateway's first answer, an HTTP response; 2 for socket.io over WebSocket: the upgrade's 101,
   * then the CONNECT's answer, which comes once the gateway has looked the tab's token up).
   */
  handshakeExchanges?: number;
  /** How long a connection waits in the queue at most before it is answered 503 (HAProxy's `timeout queue`), ms. */
  queueTimeoutMs?: number;
}

/** What a connection that waited too long in the queue is told (HAProxy answers 503 too). */
export const QUEUE_TIMEOUT_ANSWER =
  'HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Type: text/plain\r\nContent-Length: 26\r\nConnection: close\r\n\r\nqueued too long, try again';

interface Backend {
  host: string;
  port: number;
  open: number;
  /** Of those, connections whose handshake is not over yet. */
  inFlight: number;
  /** Until when it is passed over after a refused connection (0: not). */
  downUntil: number;
}

/**
 * A gateway that refuses a connection (killed, not yet listening) is passed over for `downMs` and
 * the connection goes to the next one with the fewest (nginx's `proxy_next_upstream error`): the
 * client sees one connection, not a refusal, while another instance is up. With
 * `maxInFlightPerBackend`, a connection finding the gateway with the fewest connections at its
 * handshakes' bound waits in the balancer's queue (first come, first served) for a slot there, at
 * most `queueTimeoutMs`, rather than going to a gateway that holds more.
 */
export async function leastConnections(gatewayUrls: string[], options: BalancerOptions = {}): Promise<Balancer> {
  const maxPerBackend = options.maxPerBackend ?? Infinity;
  const maxInFlight = options.maxInFlightPerBackend ?? Infinity;
  const exchanges = options.handshakeExchanges ?? 1;
  const queueTimeoutMs = options.queueTimeoutMs ?? 15_000;
  const downMs = options.downMs ?? 1_000;
  const backends = new Map<string, Backend>();
  let refused = 0;
  let queueTimeouts = 0;
  let queueAbandoned = 0;
  const add = (url: string) => {
    const u = new URL(url);
    backends.set(url, { host: u.hostname, port: Number(u.port), open: 0, inFlight: 0, downUntil: 0 });
    drain();
  };
  const sockets = new Set<Socket>();
  /** Each relayed client connection's gateway (a bench reads which gateway a tab is on, README "Part 38"). */
  const routed = new Map<Socket, string>();
  /** Connections waiting for a gateway's handshake slot, oldest first. */
  const queue = new Set<Pending>();
  interface Pending {
    /** Tries again (a slot may be free); true when it left the queue. */
    dispatch(): boolean;
  }

  /** Gateways that could take a connection now or later (not full, not tried yet), and of those the one to use now. */
  const choose = (tried: Set<Backend>): { now?: Backend; later: boolean } => {
    const time = Date.now();
    const open = [...backends.values()].filter((b) => !tried.has(b) && b.open < maxPerBackend);
    const up = open.filter((b) => b.downUntil <= time);
    const candidates = up.length > 0 ? up : open;
    // HAProxy's `balance leastconn`: the gateway with the fewest connections (established and in
    // their handshake) takes it; while that one has no free handshake slot the connection waits for
    // one, and does not go to a gateway holding more (a tab moved off a gateway would land back on it).
    const fewest = Math.min(...candidates.map((b) => b.open));
    const now = candidates.find((b) => b.open === fewest && b.inFlight < maxInFlight);
    return { now, later: candidates.length > 0 };
  };
  let draining = false;
  /** A slot came free (a handshake ended, a connection closed, a gateway was added): the queue's oldest go on. */
  function drain() {
    if (draining) return;
    draining = true;
    try {
      for (const pending of queue) if (!pending.dispatch()) break;
    } finally {
      draining = false;
    }
  }

  const server = createServer((client) => {
    // What the client sends before its gateway's connection is open is kept (a refused connection
    // goes to the next gateway without losing the request's first bytes), and its end is seen: a
    // client that gives up while queued leaves the queue.
    const early: Buffer[] = [];
    const keep = (chunk: Buffer) => early.push(chunk);
    client.on('data', keep);
    sockets.add(client);
    const tried = new Set<Backend>();
    let backend: Backend | undefined;
    let upstream: Socket | undefined;
    let handshaking = false;
    let done = false;
    let queueTimer: NodeJS.Timeout | undefined;
    const pending: Pending = { dispatch: () => tryNext(true) };
    const leaveQueue = () => {
      queue.delete(pending);
      if (queueTimer) clearTimeout(queueTimer);
      queueTimer = undefined;
    };
    const handshakeOver = () => {
      if (!handshaking || !backend) return;
      handshaking = false;
      backend.inFlight--;
      drain();
    };
    const end = () => {
      if (done) return;
      done = true;
      if (queue.has(pending)) {
        queueAbandoned++;
        leaveQueue();
      }
      if (backend) {
        backend.open--;
        if (handshaking) {
          handshaking = false;
          backend.inFlight--;
        }
      }
      client.destroy();
      upstream?.destroy();
      sockets.delete(client);
      routed.delete(client);
      if (upstream) sockets.delete(upstream);
      drain();
    };
    client.on('error', end);
    client.on('close', end);
    /** Sends the connection to a gateway; false when it must wait (queued). */
    function tryNext(fromQueue = false): boolean {
      if (done) return true;
      const { now: chosen, later } = choose(tried);
      if (!chosen) {
        if (!later) {
          leaveQueue();
          refused++;
          end();
          return true;
        }
        if (!fromQueue && !queue.has(pending)) {
          queue.add(pending);
          queueTimer = setTimeout(() => {
            if (done || !queue.has(pending)) return;
            leaveQueue();
            queueTimeouts++;
            done = true;
            sockets.delete(client);
            client.off('data', keep);
            client.end(QUEUE_TIMEOUT_ANSWER);
            setTimeout(() => client.destroy(), 1_000).unref();
          }, queueTimeoutMs);
          queueTimer.unref();
        }
        return false;
      }
      leaveQueue();
      backend = chosen;
      tried.add(chosen);
      chosen.open++;
      chosen.inFlight++;
      handshaking = true;
      const target = chosen;
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
        target.inFlight--;
        handshaking = false;
        target.downUntil = Date.now() + downMs;
        sockets.delete(socket);
        socket.destroy();
        backend = undefined;
        upstream = undefined;
        tryNext();
        drain();
      };
      socket.once('error', refusedHere);
      socket.once('connect', () => {
        socket.off('error', refusedHere);
        routed.set(client, `http://${target.host}:${target.port}`);
        socket.on('error', end);
        socket.on('close', end);
        // No Nagle on either side (nginx's `tcp_nodelay`, HAProxy's default): a small frame relayed
        // behind an unacknowledged one waits for the ACK, up to the receiver's delayed ACK (README "Part 30").
        socket.setNoDelay(true);
        client.setNoDelay(true);
        client.pause();
        client.off('data', keep);
        const spoke = early.length > 0;
        for (const chunk of early.splice(0)) socket.write(chunk);
        if (maxInFlight !== Infinity) watchHandshake(client, socket, spoke);
        else handshakeOver();
        client.pipe(socket).pipe(client);
      });
      return true;
    }
    /** The handshake is over after `exchanges` times the client spoke and the gateway answered. */
    function watchHandshake(from: Socket, to: Socket, spoke: boolean) {
      let seen = 0;
      let clientSpoke = spoke;
      const onClient = () => {
        clientSpoke = true;
      };
      const onGateway = () => {
        if (!clientSpoke) return;
        clientSpoke = false;
        if (++seen < exchanges) return;
        from.off('data', onClient);
        to.off('data', onGateway);
        handshakeOver();
      };
      from.on('data', onClient);
      to.on('data', onGateway);
    }
    tryNext();
  });
  gatewayUrls.forEach(add);
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
    queued: () => queue.size,
    queueTimeouts: () => queueTimeouts,
    queueAbandoned: () => queueAbandoned,
    routes: () =>
      [...routed].map(([client, url]) => [`${client.remoteAddress}:${client.remotePort}`, url] as [string, string]),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
