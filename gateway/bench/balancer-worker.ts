// Bench helper process (forked with IPC): one least-connections TCP balancer in front of the gateways
// (gateway/test/kit/balancer.ts), for the two-gateway mode (BENCH_GATEWAYS=2). A balancer holds two
// descriptors per tab and a process may hold 20,000 here, so the bench runs several, each in a
// process of its own with its own port, and gives each tab process one of them (as DNS spreads
// browsers over a deployment's balancers).
import { leastConnections, type Balancer } from '../test/kit/balancer';

type Request =
  | {
      type: 'start';
      port: number;
      gateways: string[];
      maxPerBackend?: number;
      maxInFlightPerBackend?: number;
      handshakeExchanges?: number;
      queueTimeoutMs?: number;
    }
  | { type: 'add'; gateway: string }
  | { type: 'open' }
  | { type: 'routes' }
  | { type: 'close' };

let balancer: Balancer | null = null;

process.on('message', async (m: Request) => {
  if (m.type === 'start') {
    // From the tabs' own addresses, as a deployment's balancer passes the browser's address on (the
    // gateway allows 100 unauthenticated connections per address: from the balancer's one address,
    // a storm's tabs were refused 429).
    balancer = await leastConnections(m.gateways, {
      port: m.port,
      maxPerBackend: m.maxPerBackend,
      keepClientAddress: true,
      // A queue of its own (README "Part 22"): at most this many handshakes in flight per gateway.
      maxInFlightPerBackend: m.maxInFlightPerBackend,
      handshakeExchanges: m.handshakeExchanges,
      queueTimeoutMs: m.queueTimeoutMs,
    });
    process.send!({ type: 'started', url: balancer.url });
  } else if (m.type === 'add') {
    balancer!.add(m.gateway);
    process.send!({ type: 'added' });
  } else if (m.type === 'open') {
    process.send!({
      type: 'open',
      open: balancer!.open(),
      refused: balancer!.refused(),
      queued: balancer!.queued(),
      queueTimeouts: balancer!.queueTimeouts(),
      queueAbandoned: balancer!.queueAbandoned(),
    });
  } else if (m.type === 'routes') {
    process.send!({ type: 'routes', routes: balancer!.routes() });
  } else if (m.type === 'close') {
    await balancer?.close();
    process.send!({ type: 'closed' });
    process.disconnect();
  }
});
