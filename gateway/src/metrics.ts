import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The gateway's Prometheus metrics; one registry per gateway so several can share a process (tests). */
export class GatewayMetrics {
  readonly registry = new Registry();
  /** Upstream WebSockets this instance holds open (one per signed-in person it leads). */
  readonly upstreamConnections = new Gauge({
    name: 'gateway_upstream_connections',
    help: 'Open upstream WebSocket connections to the api held by this instance',
    registers: [this.registry],
  });
  readonly clientSockets = new Gauge({
    name: 'gateway_client_sockets',
    help: 'Connected socket.io tabs on this instance',
    registers: [this.registry],
  });
  readonly events = new Counter({
    name: 'gateway_events_total',
    help: 'Upstream events normalized and delivered, by topic',
    labelNames: ['topic'] as const,
    registers: [this.registry],
  });
  /** Upgrade requests whose client had already closed the connection: dropped unanswered (dead-upgrades.ts). */
  readonly upgradesDropped = new Counter({
    name: 'gateway_upgrades_dropped_total',
    help: 'WebSocket upgrade requests dropped before any handshake work because their client had already closed the connection',
    registers: [this.registry],
  });
  readonly droppedEvents = new Counter({
    name: 'gateway_dropped_events_total',
    help: 'Upstream messages dropped (unknown channelType or malformed)',
    registers: [this.registry],
  });
  /** Fan-out frames from the api (issue 31): one push for several persons whose upstreams this instance holds. */
  readonly fanOutFrames = new Counter({
    name: 'gateway_fanout_frames_total',
    help: 'Pushes the api sent once for several persons whose upstreams this instance holds',
    registers: [this.registry],
  });
  readonly upstreamOpens = new Counter({
    name: 'gateway_upstream_opens_total',
    help: 'Upstream connections opened (first open and every reconnect)',
    registers: [this.registry],
  });
  /** Upstream opens whose first message carried the counters (issue 34: no counters read followed). */
  readonly countersInFirstMessage = new Counter({
    name: 'gateway_upstream_first_counters_total',
    help: "Upstream opens whose first message carried the person's counters (no separate counters read)",
    registers: [this.registry],
  });
  readonly upstreamReconnects = new Counter({
    name: 'gateway_upstream_reconnects_total',
    help: 'Upstream connections reopened after an abnormal close',
    registers: [this.registry],
  });
  /** Upstreams given up to another instance holding more of the person's tabs (README "Part 26"). */
  readonly upstreamHandovers = new Counter({
    name: 'gateway_upstream_handovers_total',
    help: "Upstreams this instance handed over to another instance holding more of the person's tabs",
    registers: [this.registry],
  });
  readonly upstreamGiveUps = new Counter({
    name: 'gateway_upstream_give_ups_total',
    help: "Upstreams that stopped reconnecting (SPEC 9's 50 attempts, or a final close); the person's tabs were told to reconnect",
    registers: [this.registry],
  });
  readonly recoveryLogBytes = new Gauge({
    name: 'gateway_recovery_log_bytes',
    help: 'Memory outside the JavaScript heap holding the last minutes of events for tabs that reconnect (0 with Redis)',
    registers: [this.registry],
  });
  readonly proxyDuration = new Histogram({
    name: 'gateway_proxy_duration_seconds',
    help: 'Latency of proxied /api requests, until the response headers',
    labelNames: ['method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly proxyRefused = new Counter({
    name: 'gateway_proxy_refused_total',
    help: 'Proxied /api calls refused with a 503 because the limits of calls in flight and waiting were reached',
    registers: [this.registry],
  });
  readonly proxyInFlight = new Gauge({
    name: 'gateway_proxy_in_flight',
    help: 'Proxied /api calls running (state "running") and waiting for a free slot (state "waiting")',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });
  readonly apiCalls = new Gauge({
    name: 'gateway_api_calls',
    help: 'The gateway\'s own api calls (identity lookups, counters, upstream opens) running (state "running") and waiting their turn (states "counters", "bulk" = upstream opens; "identity": identity lookups not yet sent, many to a call)',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });
  readonly apiUp = new Gauge({
    name: 'gateway_api_up',
    help: 'Whether each api process this gateway uses (API_URLS) is up (1) or marked down (0)',
    labelNames: ['api'] as const,
    registers: [this.registry],
  });
  readonly tabRefusals = new Counter({
    name: 'gateway_tab_refusals_total',
    help: 'socket.io handshakes and events refused by a limit, by reason',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly tabsMoved = new Counter({
    name: 'gateway_tabs_moved_total',
    help: 'Tabs whose connection this instance closed so that they come back on an instance holding fewer (GATEWAY_REBALANCE)',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'gateway_' });
  }
}
