import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { ApiConfig, AppServices } from './app-services';
import { openDatabase, type Db } from './db/open-database';
import { pipelineFromEnv } from './db/pipelined-reads';
import { serveControlSocket, type ControlSocket } from './backup/control-socket';
import { createApp } from './http/create-app';
import { errorWithoutSecrets, SECRET_KEYS } from './http/redact';
import type { ApiModule } from './http/define-route';
import { createMailer } from './mail/mailer';
import { TokenService, tokenCacheBus } from './modules/auth/token.service';
import { ApiMetrics } from './metrics/api-metrics';
import { measuredBus } from './metrics/measured-bus';
import { modules } from './modules';
import { startSosReannouncer } from './modules/disaster/disaster.service';
import { attachRealtime, PushJournal, type RealtimeHandle } from './modules/realtime';
import { createLocalBus } from './modules/realtime/event-bus';
import { createPgEventBus } from './modules/realtime/pg-event-bus';
import { loadCounters } from './modules/realtime/live-counters.service';
import type { AuthedContext } from './http/request-context';
import { systemModule } from './modules/system/system.routes';
import { ensureDemoImages, hideDemoCertificates } from './seed/demo-images';
import { ensureChatDemoFiles } from './seed/seed-im';
import { ensureFirstAdmin, type FirstAdmin } from './seed/first-admin';
import { startReminders } from './modules/announcement/announcement.reminders';
import { retentionFromEnv, startRetention, type Retention } from './db/retention';
import { estateDefaultsFrom, type EstateDefaults } from './modules/estate-settings/estate-defaults';
import { seedDemo } from './seed/seed-demo';
import { KeptById, keepByIdFromEnv, keptByIdBus } from './modules/work-orders/kept-by-id';
import { KeptLists, keepListsFromEnv } from './modules/work-orders/kept-lists';

export interface StartApiOptions {
  /** 0 (default) = a free port. */
  port?: number;
  /** Address to listen on; loopback by default (the gateway is the way in). */
  host?: string;
  /** postgres:// URL; absent = embedded PGlite. */
  databaseUrl?: string;
  /** PGlite data directory; absent (with no databaseUrl) = an in-memory database. */
  dataDir?: string;
  /** Tests: the embedded database starts from this dump, already migrated and seeded (open-database.ts). */
  loadDataDir?: Blob;
  /** true: seed the demo estate (if not there yet); false: never; absent: only into a fresh embedded database. */
  seed?: boolean;
  /** Without the demo: the administrator created when the database has no account yet (ADMIN_*). */
  firstAdmin?: FirstAdmin;
  smtpUrl?: string;
  logLevel?: string;
  /** Where the log goes (default stdout); tests read it to prove no secret is written. */
  logDestination?: DestinationStream;
  oauthClientId?: string;
  oauthClientSecret?: string;
  tokenTtlSeconds?: number;
  bodyLimitBytes?: number;
  uploadDir?: string;
  /** Upload quota per account in MB (default 200 an hour, 1000 a day). */
  uploadQuotaMbPerHour?: number;
  uploadQuotaMbPerDay?: number;
  /** Express "trust proxy": whose X-Forwarded-For is believed (default: loopback, where `npm start` runs the gateway). */
  trustProxy?: string;
  /**
   * Check every answer against its declared response schema and answer 500 when it differs
   * (tests: `API_CHECK_ANSWERS=1`, set by vitest.config.ts). Off in production: not a hot-path cost.
   */
  checkAnswers?: boolean;
  /** Called if the embedded DATA_DIR's lock is lost while running (main.ts stops the process). */
  onDataDirLockLost?: () => void;
  /**
   * GET /metrics (Prometheus) on a port of its own (0 = any free one) on `metricsHost` (default
   * 127.0.0.1): never on the api's port, which the gateway exposes under /api. Absent: not served.
   */
  metricsPort?: number;
  metricsHost?: string;
  /**
   * An SOS call nobody acknowledged is announced again after this long (default SOS_REANNOUNCE_MS
   * or 60 s), in estates that set no interval of their own (basic set-up, issue 33).
   */
  sosReannounceMs?: number;
  /** The defaults of an estate's settings, over the environment's (estate-settings/estate-defaults.ts). */
  estateDefaults?: Partial<EstateDefaults>;
  /** How long what the api keeps for a while is kept, over the environment's RETENTION_* (db/retention.ts). */
  retention?: Partial<Retention>;
  /** How often the background pruning runs (default 60 s; RETENTION_INTERVAL_SECONDS). */
  retentionIntervalMs?: number;
  /**
   * Complaints' and work orders' answers by id kept in the process, at most this many (default
   * API_KEEP_BY_ID or 10,000; 0 = none kept): modules/work-orders/kept-by-id.ts.
   */
  keepByIdEntries?: number;
  /**
   * How many complaint and work-order list pages this process keeps (default: API_KEEP_LISTS or
   * 2,000; 0 = none kept): modules/work-orders/kept-lists.ts.
   */
  keepListPages?: number;
  /**
   * PostgreSQL: how many pipelined connections carry the prepared reads (default DATABASE_PIPELINE
   * or 2; 0 = none, they go through the pool): db/pipelined-reads.ts.
   */
  pipelineConnections?: number;
}

export interface ApiHandle {
  url: string;
  port: number;
  db: Db;
  realtime: RealtimeHandle;
  log: Logger;
  metrics: ApiMetrics;
  /** Where /metrics answers (null when not served). */
  metricsUrl: string | null;
  /** Seconds the demo seed took (null when nothing was seeded). */
  seedSeconds: number | null;
  close(): Promise<void>;
}

/** Every module with the system routes (health, openapi) in front. */
export function allModules(ping: () => Promise<boolean>): ApiModule[] {
  const list: ApiModule[] = [];
  list.push(
    systemModule(() => list, ping),
    ...modules,
  );
  return list;
}

/**
 * Starts the api in-process: database (migrated), optional demo seed, the express app, the
 * real-time channel on the same HTTP server. Tests and main.ts both use it.
 */
export async function startApi(options: StartApiOptions = {}): Promise<ApiHandle> {
  const log = pino(
    {
      level: options.logLevel ?? 'info',
      // Like the gateway's lines: which tier wrote it (pid and hostname add nothing in a container).
      base: { service: 'api' },
      redact: { paths: [...SECRET_KEYS.map((k) => `*.${k}`), 'req.headers'], censor: '[redacted]' },
      serializers: { err: errorWithoutSecrets },
    },
    // Synchronous on stdout (issue 34): the access log already gathers a turn's lines into one
    // write (request-log.ts), and pino's asynchronous default cost a thread-pool hop per write.
    options.logDestination ?? pino.destination({ dest: 1, sync: true }),
  );
  const metrics = new ApiMetrics();
  // The engine's series of the query-duration metric, found once (not by its label on every query).
  const querySeries = metrics.queryDuration.series({ engine: options.databaseUrl ? 'postgres' : 'pglite' });
  const keptById = new KeptById(options.keepByIdEntries ?? keepByIdFromEnv(process.env.API_KEEP_BY_ID));
  const keptLists = new KeptLists(options.keepListPages ?? keepListsFromEnv(process.env.API_KEEP_LISTS));
  metrics.watch({ keptById, keptLists });
  // Which api process committed a write (the bus skips its own 'kept' envelope: dropped at the commit already).
  const origin = randomUUID();
  /** Set once the bus exists: tells the other api processes to drop their kept answers. */
  const announce: { kept?: () => void } = {};
  const database = await openDatabase({
    // A committed write to a table the kept answers read drops them here, before the writer's
    // code after its commit runs, and in the other processes through the bus (kept-by-id.ts).
    onWrite: (tables) => {
      const byId = KeptById.concerns(tables);
      const lists = KeptLists.concerns(tables);
      if (!byId && !lists) return;
      if (byId) keptById.dropAll();
      if (lists) keptLists.dropAll();
      announce.kept?.();
    },
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    pipelineConnections: options.pipelineConnections ?? pipelineFromEnv(process.env.DATABASE_PIPELINE),
    onQuery: (seconds) => querySeries.observe(seconds),
    lock: {
      onUnsupported: (reason) => log.warn({ dataDir: options.dataDir }, `DATA_DIR is not locked: ${reason}`),
      onLost: () => {
        log.fatal({ dataDir: options.dataDir }, 'lost the lock on DATA_DIR');
        options.onDataDirLockLost?.();
      },
    },
  });
  const { db } = database;
  let seedSeconds: number | null = null;
  const shouldSeed = options.seed ?? (database.engine === 'pglite' && database.fresh);
  if (shouldSeed) {
    const started = Date.now();
    const seeded = await seedDemo(db);
    if (seeded) {
      seedSeconds = (Date.now() - started) / 1000;
      log.info({ seconds: seedSeconds }, 'demo estate seeded');
    }
  } else {
    const firstAdmin = await ensureFirstAdmin(db, options.firstAdmin);
    if (firstAdmin === 'created') log.info({ username: options.firstAdmin?.username }, 'first administrator created');
    if (firstAdmin === 'not configured')
      log.warn('the database has no accounts: set ADMIN_USERNAME and ADMIN_PASSWORD to create the first administrator');
  }
  const config: ApiConfig = {
    oauthClientId: options.oauthClientId ?? 'console',
    oauthClientSecret: options.oauthClientSecret ?? 'console-secret',
    tokenTtlSeconds: options.tokenTtlSeconds ?? 7 * 24 * 3600,
    bodyLimitBytes: options.bodyLimitBytes ?? 1024 * 1024,
    trustProxy: options.trustProxy ?? 'loopback',
    // Without a data directory (tests) uploads go to a fresh temporary directory.
    uploadDir:
      options.uploadDir ??
      (options.dataDir ? join(options.dataDir, 'uploads') : join(tmpdir(), `pm-uploads-${randomUUID()}`)),
    uploadQuota: {
      bytesPerHour: (options.uploadQuotaMbPerHour ?? 200) * 1024 * 1024,
      bytesPerDay: (options.uploadQuotaMbPerDay ?? 1000) * 1024 * 1024,
    },
    estateDefaults: estateDefaultsFrom(process.env, {
      ...options.estateDefaults,
      ...(options.sosReannounceMs !== undefined && { sosReannounceMs: options.sosReannounceMs }),
    }),
  };
  // The demo estate's pictures live in the upload directory, which may be new even when the
  // database was seeded before (a fresh container on an old database).
  if (shouldSeed) await ensureDemoImages(config.uploadDir);
  if (shouldSeed) await ensureChatDemoFiles(config.uploadDir);
  await hideDemoCertificates(config.uploadDir);
  const tokens = new TokenService(db, config.tokenTtlSeconds);
  const mailer = createMailer(db, log, options.smtpUrl);
  const services = { db, config, log, mailer, tokens, keptById, keptLists } as AppServices;
  const checkAnswers = options.checkAnswers ?? process.env.API_CHECK_ANSWERS === '1';
  const app = createApp(services, allModules(database.ping), { metrics, checkAnswers });
  const server: Server = createServer(app);
  server.requestTimeout = 30_000;

  // The bus attachRealtime would build, with push latency measured, whose revocations and
  // access changes also drop the verified tokens cached by this process (token.service.ts).
  const bus = keptByIdBus(
    tokenCacheBus(
      measuredBus(
        database.databaseUrl
          ? await createPgEventBus({ connectionString: database.databaseUrl, log })
          : createLocalBus(),
        metrics,
      ),
      tokens,
    ),
    // Another process's write drops both kinds of kept answers here (coarsely: one envelope for both).
    {
      dropAll: () => {
        keptById.dropAll();
        keptLists.dropAll();
      },
    },
    origin,
  );
  // Published at once (before the write's pushes: the bus keeps their order); only another process needs it.
  announce.kept = () =>
    void bus.publish({ kind: 'kept', origin }).catch((err) => log.error({ err }, 'kept answers: drop not announced'));
  tokens.announceAccessChanges((change) => bus.publish({ kind: 'access', ...change }));
  services.realtime = await attachRealtime(server, {
    verifyToken: async (token) => {
      const caller = await tokens.verify(token);
      return caller ? { personId: caller.personId, expiresAt: caller.expiresAt } : null;
    },
    databaseUrl: database.databaseUrl,
    log,
    journal: new PushJournal(db),
    bus,
    // The counters in a resuming upstream's first message (`counters=1`, issue 34): what
    // `GET /realtime/counters` answers the token, read through the same code (and kept answers).
    firstCounters: async (token) => {
      const caller = await tokens.verify(token);
      if (!caller) return null;
      const tenant = { companyId: caller.companyId, housingEstateId: caller.housingEstateId };
      return loadCounters({ caller, tenant, db, services, token } as unknown as AuthedContext, modules);
    },
  });
  const stopReannouncer = startSosReannouncer(db, services.realtime, config.estateDefaults.sosReannounceMs, (err) =>
    log.error({ err }, 'sos: announcing unacknowledged calls again failed'),
  );
  metrics.watch({ pool: database.poolStats, realtimeConnections: () => services.realtime.connectionCount() });
  const realtime = services.realtime as RealtimeHandle & { revokeTokenHash?: (hash: string) => Promise<void> };
  tokens.onRevoke((revoked) => {
    for (const r of revoked) {
      const done = r.token ? realtime.revokeToken(r.token) : realtime.revokeTokenHash?.(r.tokenHash);
      done?.catch((err) => log.error({ err }, 'realtime: revocation failed'));
    }
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // A long listen queue (capped by net.core.somaxconn): a gateway restarting under thousands of
    // tabs opens thousands of upstreams and calls at once; they wait instead of being dropped.
    server.listen({ port: options.port ?? 0, host, backlog: 8192 }, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const metricsServer =
    options.metricsPort === undefined
      ? null
      : await listenForMetrics(metrics, options.metricsPort, options.metricsHost ?? '127.0.0.1', log);
  const metricsUrl = metricsServer ? `http://${displayAddress(metricsServer)}/metrics` : null;
  // `npm run backup` asks the running api over DATA_DIR/api.sock (embedded database only).
  let control: ControlSocket | null = null;
  if (database.quiesce && options.dataDir)
    control = await serveControlSocket(options.dataDir, database.quiesce, log).catch((err: Error) => {
      log.warn({ err: err.message }, 'no control socket in DATA_DIR: `npm run backup` needs the api stopped');
      return null;
    });
  log.info({ host, port, engine: database.engine, metrics: metricsUrl }, 'api listening');
  // Vote reminders, from a schedule in the database (modules/announcement/announcement.reminders.ts).
  const stopReminders = startReminders(db, services.realtime, config.estateDefaults.voteReminderUnitMs, (err) =>
    log.error({ err }, 'vote reminders failed'),
  );
  // What the api keeps for a while is pruned in the background, in small batches (README "Data that stays bounded").
  const stopRetention = startRetention(
    db,
    { ...retentionFromEnv(process.env), ...options.retention },
    {
      embedded: database.engine === 'pglite',
      uploadDir: config.uploadDir,
      intervalMs: options.retentionIntervalMs ?? Number(process.env.RETENTION_INTERVAL_SECONDS || 60) * 1000,
      onError: (err) => log.error({ err }, 'retention: pruning failed'),
      onPruned: (deleted) => {
        if (Object.values(deleted).some((n) => n > 0)) log.info({ deleted }, 'retention: pruned');
      },
    },
  );

  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    db,
    realtime: services.realtime,
    log,
    metrics,
    metricsUrl,
    seedSeconds,
    close() {
      closing ??= (async () => {
        stopReannouncer();
        stopReminders();
        stopRetention();
        await control?.close();
        if (metricsServer) {
          metricsServer.closeAllConnections();
          await new Promise((resolve) => metricsServer.close(resolve));
        }
        await services.realtime.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await mailer.close();
        await database.close();
      })();
      return closing;
    },
  };
}

/** `127.0.0.1:9465` of a listening server (an IPv6 address in brackets). */
function displayAddress(server: Server): string {
  const { address, port } = server.address() as AddressInfo;
  return `${address.includes(':') ? `[${address}]` : address}:${port}`;
}

/**
 * The metrics listener: GET /metrics and nothing else. Its port being taken does not stop the
 * api (serving people matters more than being watched): a warning names API_METRICS_PORT.
 */
async function listenForMetrics(metrics: ApiMetrics, port: number, host: string, log: Logger): Promise<Server | null> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (err: Error) => {
        log.error({ err }, 'metrics failed');
        res.writeHead(500).end();
      },
    );
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return server;
  } catch (err) {
    log.warn(
      { err: (err as Error).message },
      `API_METRICS_PORT ${port} on ${host} cannot be opened: /metrics is not served (set API_METRICS_PORT to a free port)`,
    );
    return null;
  }
}
