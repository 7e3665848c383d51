import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import { ApiClient } from './api-client';
import { Rebalancer, type RebalanceOptions } from './rebalance';
import { ApiGate, type ApiGateLimits } from './api-gate';
import { ApiTargets } from './api-targets';
import { addClientCredentials, type OAuthClient } from './client-credentials';
import type { GatewayServer } from './gateway-io';
import { dropDeadUpgrades } from './dead-upgrades';
import { IdentityCache } from './identity-cache';
import { LocalLease, RedisLease, type UpstreamLease } from './lease';
import { createLogger } from './logger';
import { GatewayMetrics } from './metrics';
import { PersonHubs } from './person-hubs';
import { createApiProxy } from './proxy';
import type { ProxyLimits } from './proxy-admission';
import { CompactRecoveryAdapter } from './recovery-adapter';
import { RedisBroadcastBatching } from './redis-broadcast-batching';
import { batchTabWrites } from './tab-write-batching';
import { requestLogger, type IdentifiedRequest } from './request-log';
import { apiSecurityHeaders, consoleSecurityHeaders } from './security-headers';
import { NoSnapshotStore, RedisSnapshotStore, type SnapshotStore } from './snapshot-store';
import { staticClient } from './static-client';
import { DEFAULT_TAB_LIMITS, TabLimiter, type TabLimits } from './tab-limits';
import { attachTabSockets, recoverOnlyValidSessions } from './tab-sockets';

export interface GatewayOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  apiUrl: string;
  /**
   * More api processes (API_URLS after the first): REST calls and upstreams use them, in order,
   * while `apiUrl` is down (api-targets.ts). Absent: `apiUrl` alone, nothing checked.
   */
  fallbackApiUrls?: string[];
  /** How often each api is asked for its health when there are several (ms, default 1 s). */
  apiProbeMs?: number;
  /** Scale-out: socket.io Redis adapter, upstream leases, connection-state recovery across instances. */
  redisUrl?: string;
  /** Prefix of every Redis key and stream of this deployment (tests use one per run). */
  redisPrefix?: string;
  clientDist?: string;
  logLevel?: string;
  /** How long a person's upstream outlives the last tab (ms). */
  graceMs?: number;
  /** Upstream lease lifetime in Redis (ms); renewed every third of it. */
  leaseTtlMs?: number;
  /** How long the api may take to answer a proxied call (ms); SPEC §9 says 10 s. */
  proxyTimeoutMs?: number;
  /** Delay before reconnecting an upstream after 1006 (ms); SPEC §9 says 5 s. */
  reconnectDelayMs?: number;
  /**
   * A push to several persons whose upstreams this gateway holds comes once, as a fan-out frame
   * (issue 31). Off by default: its gain is not proven and a frame lost with its carrier socket
   * reaches a quiet person only at their next push (README, "Seventh pass: a group message sent
   * once"). Default: GATEWAY_FAN_OUT=1.
   */
  fanOut?: boolean;
  /**
   * With Redis: a person's upstream follows the person's tabs, the instance holding fewer of them
   * handing it over to the one holding more (README "Part 26"). Off by default until a quiet
   * machine's run shows its gain (the runs so far were all on a loaded one). GATEWAY_LEASE_FOLLOWS_TABS=1.
   */
  leaseFollowsTabs?: boolean;
  /** Reconnects of an upstream after 1006 before it gives up and the tabs reconnect; SPEC §9 says 50. */
  upstreamMaxAttempts?: number;
  /** Proxied calls in flight and waiting, per client address and overall (defaults in proxy-admission.ts). */
  proxyLimits?: Partial<ProxyLimits>;
  /** Tabs per person, unauthenticated connections per address, events per tab (defaults in tab-limits.ts). */
  tabLimits?: Partial<TabLimits>;
  /**
   * The gateway's own api calls (identity lookups, counters, upstream opens) in flight at once and
   * the identity lookups that may wait (defaults in api-gate.ts).
   */
  apiGate?: Partial<ApiGateLimits>;
  /**
   * With Redis: an instance holding more than its share of the tabs closes some of its persons'
   * connections, and they come back (through the load balancer) on the instances holding fewer, so a
   * gateway started beside a busy one takes its half (rebalance.ts). Off unless asked for:
   * GATEWAY_REBALANCE=1 or `true` / options here.
   */
  rebalance?: boolean | Partial<RebalanceOptions>;
  /** How long the gateway's own api calls (identity, counters) may take (ms, default HTTP_TIMEOUT_MS); a batch of identity lookups gets more per token (api-client.ts). */
  apiTimeoutMs?: number;
  /** How often the tokens of connected tabs are checked with the api (ms, default a minute). */
  tokenCheckMs?: number;
  /** The console's OAuth client, added to its sign-in calls (default console / console-secret, as the api's). */
  oauthClient?: OAuthClient;
  /**
   * Where GET /metrics is served: a port of its own (0 = any free one) on `metricsHost`
   * (default 127.0.0.1), as main.ts does from METRICS_PORT; null = nowhere; absent = on the
   * main port, for a gateway embedded in a test. Public users never reach the metrics port.
   */
  metricsPort?: number | null;
  metricsHost?: string;
}

export interface GatewayHandle {
  url: string;
  port: number;
  io: GatewayServer;
  metrics: GatewayMetrics;
  /** Where /metrics answers (null when it is served nowhere). */
  metricsUrl: string | null;
  /** Graceful: closes upstreams, gives up leases, drains tabs (they reconnect elsewhere), stops listening. */
  close(): Promise<void>;
}

export const DEFAULT_GRACE_MS = 10_000;
/** How long a dropped tab's missed events are kept for it. */
export const RECOVERY_WINDOW_MS = 2 * 60_000;
/**
 * How long an upstream lease lives without renewal. A dead holder is normally replaced sooner: its
 * liveness subscription disappears from Redis with its connection (lease.ts), and the others try
 * every third of this, and at once when one of the person's tabs connects to them.
 */
export const DEFAULT_LEASE_TTL_MS = 6_000;

/** Starts one gateway instance (DESIGN §1): console, /api proxy, socket.io, /health, /metrics. */
export async function startGateway(options: GatewayOptions): Promise<GatewayHandle> {
  const logger = createLogger(options.logLevel ?? 'info');
  const metrics = new GatewayMetrics();
  const apiUrl = options.apiUrl.replace(/\/$/, '');
  const targets = new ApiTargets([apiUrl, ...(options.fallbackApiUrls ?? [])], { logger, probeMs: options.apiProbeMs });
  targets.start();
  const api = new ApiClient(targets, options.apiTimeoutMs, new ApiGate(options.apiGate));
  const identities = new IdentityCache(api);
  const prefix = options.redisPrefix ?? 'pm-gateway:';
  const oauthClient = options.oauthClient ?? { id: 'console', secret: 'console-secret' };

  // Auto-pipelining: the commands made in one turn of the event loop (an XADD per broadcast, the
  // snapshots' SETs) leave in one write, in the order they were made, instead of a write each: at
  // 2,000 events/s the writes alone took the gateway's event loop and a proxied call waited seconds
  // behind them (issue 31, ninth pass). GATEWAY_REDIS_PIPELINE=0 writes each command at once (for comparing).
  const redis = options.redisUrl
    ? new Redis(options.redisUrl, {
        maxRetriesPerRequest: 2,
        enableAutoPipelining: process.env.GATEWAY_REDIS_PIPELINE !== '0',
      })
    : null;
  redis?.on('error', (err) => logger.warn({ err: err.message }, 'redis error'));
  const lease: UpstreamLease = redis
    ? new RedisLease(redis, prefix, randomUUID(), options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS)
    : new LocalLease();
  // One stream entry per turn for the broadcasts on Redis (issue 31, tenth pass); GATEWAY_REDIS_BATCH=0
  // writes one per broadcast, as the streams adapter does (for comparing; every instance alike).
  const batching =
    redis && process.env.GATEWAY_REDIS_BATCH !== '0'
      ? new RedisBroadcastBatching(redis, `${prefix}socket.io`, RECOVERY_WINDOW_MS, `${prefix}sio:session:`)
      : null;
  const snapshots: SnapshotStore = redis
    ? new RedisSnapshotStore(redis, prefix, batching ? () => batching.flush() : undefined)
    : new NoSnapshotStore();

  const app = express();
  app.disable('x-powered-by');
  app.use(consoleSecurityHeaders);
  // /api/* skips express entirely: the proxy is the hot path and needs no routing.
  let proxy: ReturnType<typeof createApiProxy> | null = null;
  const logRequest = requestLogger(logger);
  const httpServer = createServer((req: IdentifiedRequest, res) => {
    const url = req.url ?? '/';
    if (proxy && (url.startsWith('/api/') || url === '/api' || url.startsWith('/api?'))) {
      // The proxy writes the request id and the security headers with the api's answer.
      logRequest(req, res, false);
      req.url = url.slice(4) || '/';
      addClientCredentials(req, req.url, oauthClient);
      proxy(req, res);
      return;
    }
    logRequest(req, res);
    app(req, res);
  });
  const withBatching = <T>(factory: T): T => (batching ? batching.wrap(factory) : factory);
  const io: GatewayServer = new Server(httpServer, {
    cors: { origin: true },
    // A connection that has not joined as a tab within 30 s is closed (socket.io's default is 45 s).
    // Its handshake may wait up to 18 s for its turn at the api (api-gate.ts) when thousands of tabs
    // come back at once: a connection kept waiting costs a socket, one refused a new handshake.
    connectTimeout: 30_000,
    // A tab that drops for a moment gets what it missed (with Redis, on any instance), but only while
    // its token is valid, and it passes the handshake check again (tab-sockets.ts).
    connectionStateRecovery: { maxDisconnectionDuration: RECOVERY_WINDOW_MS, skipMiddlewares: false },
    // With Redis any instance reaches any tab and missed events are kept in Redis; without it they are
    // kept in this process, compactly (see CompactRecoveryAdapter).
    adapter: recoverOnlyValidSessions(
      redis
        ? withBatching(
            createAdapter(redis, {
              streamName: `${prefix}socket.io`,
              channelPrefix: `${prefix}socket.io`,
              sessionKeyPrefix: `${prefix}sio:session:`,
              onlyPlaintext: true,
              // GATEWAY_STREAM_READ_COUNT: at most this many stream entries per XREAD (the adapter's
              // default, 100, when unset): fewer hold a turn's tab writes behind less (issue 34, trial).
              ...streamReadCount(),
            }),
          )
        : CompactRecoveryAdapter,
      identities,
    ),
  });

  // A tab that gave up while its connection waited in the listen queue costs no handshake (issue 34).
  dropDeadUpgrades(httpServer, () => metrics.upgradesDropped.inc());

  // GATEWAY_BATCH_TAB_WRITES=0 writes each frame at once (for comparing; README, issue 31).
  if (process.env.GATEWAY_BATCH_TAB_WRITES !== '0') batchTabWrites(io);

  const hubs = new PersonHubs({
    io,
    api,
    identities,
    lease,
    snapshots,
    metrics,
    logger,
    graceMs: options.graceMs ?? DEFAULT_GRACE_MS,
    clustered: redis !== null,
    leaseFollowsTabs: options.leaseFollowsTabs ?? process.env.GATEWAY_LEASE_FOLLOWS_TABS === '1',
    reconnectDelayMs: options.reconnectDelayMs,
    upstreamMaxAttempts: options.upstreamMaxAttempts,
    // Off unless asked for (GATEWAY_FAN_OUT=1 or `fanOut`): see README, issue 31 "Seventh pass: a group message sent once".
    gatewayId: (options.fanOut ?? process.env.GATEWAY_FAN_OUT === '1') ? randomUUID() : undefined,
  });
  const tabLimiter = new TabLimiter({ ...DEFAULT_TAB_LIMITS, ...options.tabLimits }, metrics);
  tabLimiter.attach(io);
  const tabSockets = attachTabSockets(io, { hubs, identities, logger, tokenCheckMs: options.tokenCheckMs });
  const rebalance = options.rebalance ?? process.env.GATEWAY_REBALANCE === '1';
  const rebalancer =
    redis && rebalance
      ? new Rebalancer(io, redis, prefix, randomUUID(), logger, metrics, rebalance === true ? {} : rebalance)
      : null;
  rebalancer?.start();
  io.use(tabLimiter.admitTab);
  io.on('connection', tabLimiter.watchTab);

  proxy = createApiProxy({
    apiUrl: targets,
    logger,
    metrics,
    timeoutMs: options.proxyTimeoutMs,
    limits: options.proxyLimits,
    answerHeaders: apiSecurityHeaders,
    hooks: {
      signedOut: (token) => {
        identities.get(token).then(
          // The token is already revoked: a fresh lookup fails, so only a cached identity helps; the
          // api's 4001 on the upstream covers the rest.
          (id) => id && hubs.revokeToken(id.personId, token, 'logout'),
          () => undefined,
        );
      },
    },
  });
  app.get('/health', async (_req, res) => {
    const [apiUp, redisUp] = await Promise.all([
      api.healthy(),
      redis
        ? redis.ping().then(
            () => true,
            () => false,
          )
        : Promise.resolve(null),
    ]);
    const ok = apiUp && redisUp !== false;
    res
      .status(ok ? 200 : 503)
      .json({ code: ok ? 200 : 503, msg: ok ? 'ok' : 'unavailable', data: { api: apiUp, redis: redisUp } });
  });
  const serveMetrics = async (_req: express.Request, res: express.Response) => {
    metrics.upstreamConnections.set(hubs.openUpstreams());
    metrics.clientSockets.set(io.of('/').sockets.size);
    const { running, waiting } = proxy!.admission.load;
    metrics.proxyInFlight.set({ state: 'running' }, running);
    metrics.proxyInFlight.set({ state: 'waiting' }, waiting);
    for (const [state, n] of Object.entries(api.gate.load)) metrics.apiCalls.set({ state }, n);
    // Identity lookups, not the gate's turns (a turn sends up to IDENTITY_BATCH_MAX of them).
    metrics.apiCalls.set({ state: 'identity' }, api.lookupsWaiting);
    const adapter = io.of('/').adapter;
    metrics.recoveryLogBytes.set(adapter instanceof CompactRecoveryAdapter ? adapter.keptBytes : 0);
    for (const url of targets.urls) metrics.apiUp.set({ api: url }, targets.isUp(url) ? 1 : 0);
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  };
  if (options.metricsPort === undefined) app.get('/metrics', serveMetrics);
  app.use(staticClient(options.clientDist));

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    // A long listen queue (the kernel caps it at net.core.somaxconn): thousands of tabs coming
    // back at once after a restart wait their turn instead of having their connections dropped.
    // GATEWAY_LISTEN_BACKLOG sets another length (README "Part 13": a queue whose wait outlasts the
    // clients' connect timeout fills with connections they have given up).
    const backlog = Number(process.env.GATEWAY_LISTEN_BACKLOG) || 8192;
    httpServer.listen({ port: options.port ?? 0, host: options.host, backlog }, () => resolve());
  });
  const port = (httpServer.address() as AddressInfo).port;
  let metricsUrl: string | null = options.metricsPort === undefined ? `http://127.0.0.1:${port}/metrics` : null;
  let metricsServer: HttpServer | null = null;
  if (typeof options.metricsPort === 'number') {
    const metricsApp = express();
    metricsApp.disable('x-powered-by');
    metricsApp.get('/metrics', serveMetrics);
    metricsServer = await listenForMetrics(metricsApp, options.metricsPort, options.metricsHost ?? '127.0.0.1', logger);
    if (metricsServer) metricsUrl = `http://${displayHost(metricsServer)}/metrics`;
  }
  logger.info({ port, apiUrls: targets.urls, redis: redis !== null, metrics: metricsUrl }, 'gateway listening');

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      tabSockets.close();
      await rebalancer?.stop();
      hubs.disposeAll();
      targets.stop();
      await lease.close();
      const closed = new Promise<void>((resolve) => httpServer.once('close', () => resolve()));
      // Tabs are told the server is going away (they reconnect to another instance and recover).
      await io.close();
      // In-flight proxied calls may finish; idle keep-alive connections go now, the rest after 5 s.
      httpServer.closeIdleConnections();
      let force: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise((resolve) => (force = setTimeout(resolve, 5_000)))]);
      clearTimeout(force);
      httpServer.closeAllConnections();
      await redis?.quit().catch(() => undefined);
      await api.close();
      if (metricsServer) {
        metricsServer.closeAllConnections();
        await new Promise((resolve) => metricsServer!.close(resolve));
      }
      logger.info('gateway stopped');
    })());

  return { url: `http://127.0.0.1:${port}`, port, io, metrics, metricsUrl, close };
}

/** `127.0.0.1:9464` of a listening server (an IPv6 address in brackets). */
function displayHost(server: HttpServer): string {
  const { address, port } = server.address() as AddressInfo;
  return `${address.includes(':') ? `[${address}]` : address}:${port}`;
}

/**
 * The metrics listener. Its port being taken does not stop the gateway (serving people matters
 * more than being watched): it logs a warning that names METRICS_PORT, and /metrics is missing.
 */
async function listenForMetrics(
  app: express.Express,
  port: number,
  host: string,
  logger: ReturnType<typeof createLogger>,
): Promise<HttpServer | null> {
  const server = createServer(app);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return server;
  } catch (err) {
    logger.warn(
      { err: (err as Error).message },
      `METRICS_PORT ${port} on ${host} cannot be opened: /metrics is not served (set METRICS_PORT to a free port)`,
    );
    return null;
  }
}

/** The streams adapter's `readCount` from GATEWAY_STREAM_READ_COUNT (a positive integer), or nothing: its default. */
export function streamReadCount(env: Record<string, string | undefined> = process.env): { readCount?: number } {
  const raw = env.GATEWAY_STREAM_READ_COUNT;
  if (raw === undefined || raw === '') return {};
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`GATEWAY_STREAM_READ_COUNT must be a positive integer, not "${raw}"`);
  return { readCount: value };
}
