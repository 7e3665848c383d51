// Gateway benchmark (DESIGN §6), run by `npm run bench gateway` or `npx tsx gateway/bench/gateway.bench.ts`.
// 200 persons × 5 tabs through a real gateway process in front of a real api: upstream count,
// push-to-tab latency at 2,000 events/s, gateway RSS per socket, proxied vs direct REST rate.
// Prints exactly one JSON line on stdout; progress goes to stderr.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { runBench } from '../../api/bench/kit';
import { createBenchPersons, type BenchApi } from './bench-accounts';
import { gatewayBundle } from '../../scripts/build-gateway.mjs';
import { ask, forkHelper } from './helper-ipc';
import { startCpuWindow } from './process-cpu';
import { assertHaproxy, startHaproxy } from './haproxy';

const PERSONS = Number(process.env.BENCH_PERSONS ?? 200);
const TABS_PER_PERSON = 5;
const EVENTS_PER_SECOND = 2000;
const EVENT_SECONDS = Number(process.env.BENCH_EVENT_SECONDS ?? 10);
const REST_SECONDS = Number(process.env.BENCH_REST_SECONDS ?? 18);
const REST_ROUNDS = Number(process.env.BENCH_REST_ROUNDS ?? 9);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
/** Processes the tabs are spread over (each holds one descriptor per tab): 2, or one per 5,000 tabs. */
const TAB_WORKERS = Number(process.env.BENCH_TAB_WORKERS ?? Math.max(2, Math.ceil((PERSONS * TABS_PER_PERSON) / 5000)));
const REST_CONCURRENCY = 32;
/** How long the reconnect storm is given before the tabs not back are counted (s). */
const RECONNECT_TIMEOUT_S = Number(process.env.BENCH_RECONNECT_TIMEOUT_S ?? 120);
/**
 * BENCH_PORT_BASE: the gateway listens on it, its metrics on +1, the api on +2, a second gateway on
 * +3 and +4 (a shared machine gives each engineer a range); free ports otherwise.
 */
const PORT_BASE = process.env.BENCH_PORT_BASE ? Number(process.env.BENCH_PORT_BASE) : null;
/**
 * BENCH_GATEWAYS=2: two gateway processes on Redis (BENCH_REDIS_URL, default the local one; a
 * REDIS_PREFIX of the run's own) behind least-connections TCP balancers, each balancer in its own
 * process (BENCH_BALANCERS of them, one per tab process: two descriptors per tab), the tab processes
 * spread over them: the bench's Node balancers, or HAProxy with BENCH_BALANCER=haproxy. The storm
 * kills the second gateway; BENCH_REBALANCE=1 first opens every tab on the first gateway alone and
 * then starts the second with GATEWAY_REBALANCE=1 (both run with it), sampling for
 * BENCH_REBALANCE_SECONDS how many tabs it holds. The default stays one gateway.
 */
const GATEWAYS = process.env.BENCH_GATEWAYS === '2' ? 2 : 1;
const TWO = GATEWAYS === 2;
const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';
const REDIS_PREFIX = process.env.BENCH_REDIS_PREFIX || `gateway-bench:${process.pid}:${Date.now().toString(36)}:`;
// One balancer per tab process (each tab process uses one): 5,000 tabs are 10,000 descriptors.
const BALANCERS = Number(process.env.BENCH_BALANCERS ?? TAB_WORKERS);
const REBALANCE = TWO && process.env.BENCH_REBALANCE === '1';
/**
 * The storm with two gateways runs without the rebalancer unless BENCH_GATEWAY_REBALANCE=1: with
 * it, the survivor (holding every tab of the killed one) kept closing tabs to move them to the
 * restarted gateway while that one, just started at a load of 15–20, left them in its accept queue
 * (README, "Part 17"). The rebalance case (BENCH_REBALANCE=1) always runs with it.
 */
const REBALANCE_ON = REBALANCE || (TWO && process.env.BENCH_GATEWAY_REBALANCE === '1');
/** How long the bench waits at most for a gateway to take its share and the rebalancer to settle (s). */
const REBALANCE_SECONDS = Number(process.env.BENCH_REBALANCE_SECONDS ?? 60);
/**
 * The balancers queue (README "Part 22"): at most BENCH_BALANCER_IN_FLIGHT handshakes (the upgrade
 * and socket.io's CONNECT answered) in flight from one balancer to one gateway, the rest waiting in
 * the balancer, at most BENCH_BALANCER_QUEUE_TIMEOUT_MS (then 503). 0: no bound (Part 17's balancers).
 */
const BALANCER_IN_FLIGHT = Number(process.env.BENCH_BALANCER_IN_FLIGHT ?? 64);
/**
 * 1: a handshake is in flight until the gateway answers the upgrade (its accept queue and event
 * loop); 2: until socket.io's CONNECT is answered too, which waits for the identity lookup at the
 * api (batched: bounding it throttled a 5,000-tab storm to 20 tabs a second, Part 22's run 2).
 */
const BALANCER_HANDSHAKE_EXCHANGES = Number(process.env.BENCH_BALANCER_HANDSHAKE_EXCHANGES ?? 1);
const BALANCER_QUEUE_TIMEOUT_MS = Number(process.env.BENCH_BALANCER_QUEUE_TIMEOUT_MS ?? 15_000);
/** At most how long the fan-out waits for the storm's work to drain (accept queues, api calls, balancer queues, CPU). */
const DRAIN_TIMEOUT_S = Number(process.env.BENCH_DRAIN_TIMEOUT_S ?? 90);
const root = resolve(import.meta.dirname, '../..');
const log = (msg: string) => process.stderr.write(`[gateway bench] ${msg}\n`);
const now = () => performance.timeOrigin + performance.now();

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
function median(sorted: number[]): number {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

// Whatever way this process ends (a failure, Ctrl+C), the gateway and helper processes end with it:
// a stray gateway would skew the next run.
const children: ChildProcess[] = [];
process.on('exit', () => children.forEach((c) => c.exitCode === null && c.kill()));
// Stopped (Ctrl+C, SIGTERM): the gateways end first (they would write their keys again), then the
// run's Redis keys go, as at the end of a run (README "Part 22": Part 17's runs left them behind).
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    log(`${signal}: stopping the gateways and deleting the run's Redis keys`);
    void endChildrenAndDropKeys().finally(() => process.exit(130));
  });

// With two gateways, a detached janitor deletes the run's Redis keys once this process is gone,
// whatever ended it (a SIGTERM that npx passes on and then kills the tree, or SIGKILL, runs none of
// this process's handlers).
if (TWO)
  spawn(
    process.execPath,
    [join(import.meta.dirname, 'redis-janitor.mjs'), String(process.pid), REDIS_URL, REDIS_PREFIX],
    {
      detached: true,
      stdio: 'ignore',
    },
  ).unref();

/** Ends every helper process (SIGKILL: a stopped run's state is not kept) and deletes the run's Redis keys. */
async function endChildrenAndDropKeys(): Promise<void> {
  const ended = children
    .filter((c) => c.exitCode === null && c.signalCode === null)
    .map((c) => new Promise((r) => (c.once('exit', r), c.kill('SIGKILL'))));
  await Promise.race([Promise.all(ended), new Promise((r) => setTimeout(r, 5000))]);
  if (TWO) await Promise.race([dropRedisKeys().catch(() => undefined), new Promise((r) => setTimeout(r, 5000))]);
}

/**
 * The open-file limit a process started from this one gets (`ulimit -n`; null where unknown). The
 * gateway holds one descriptor per tab and one per person's upstream: on this machine (20,000 per
 * process, and raising it takes CAP_SYS_RESOURCE) 4,000 persons × 5 tabs need more than it has, and
 * the tabs beyond simply never opened.
 */
function openFileLimit(): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft && /^\d+$/.test(soft) ? Number(soft) : null;
  } catch {
    return null;
  }
}

/**
 * The open files the gateway is started with: one per tab and per upstream and some to spare. Above
 * this process's own limit the gateway is started through `prlimit --nofile` (which needs root or
 * CAP_SYS_RESOURCE to go above the hard limit, as Docker's default of 1,048,576 would give it).
 */
// With two gateways either may hold more than half (the survivor of a kill): each gets the hard
// limit, and the balancers keep what they send it below that (startBalancers).
const GATEWAY_OPEN_FILES = TWO
  ? (hardOpenFileLimit() ?? PERSONS * (TABS_PER_PERSON + 1) + 500)
  : PERSONS * (TABS_PER_PERSON + 1) + 500;

/** The hard open-file limit (what `prlimit` may raise the soft one to without CAP_SYS_RESOURCE). */
function hardOpenFileLimit(): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const hard = line?.split(/\s{2,}/)[2];
    return hard && /^\d+$/.test(hard) ? Number(hard) : null;
  } catch {
    return null;
  }
}

/** The kernel's count of connections dropped because a listen queue was full (all processes). */
function listenOverflows(): number {
  const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
  const names = lines.find((l) => l.startsWith('TcpExt:'))!.split(' ');
  const values = lines.filter((l) => l.startsWith('TcpExt:'))[1].split(' ');
  return Number(values[names.indexOf('ListenOverflows')]);
}

/**
 * Tabs of different persons come from different addresses, as from different browsers in life
 * (127.1.x.y, all on the loopback interface); with every tab from 127.0.0.1 the gateway's limit of
 * unauthenticated connections per address made 20,000 tabs take turns (README, issue 34).
 */
function tabAddress(person: number): string {
  if (TAB_OCTETS) {
    // BENCH_TAB_OCTETS=3-9: 127.0.3.1 … 127.0.9.254, persons sharing them in turn (a shared machine
    // gives each engineer a range of loopback addresses too).
    const [from, to] = TAB_OCTETS;
    const slot = person % ((to - from + 1) * 254);
    return `127.0.${from + Math.floor(slot / 254)}.${(slot % 254) + 1}`;
  }
  return `127.1.${(person >> 8) & 255}.${person & 255}`;
}
const TAB_OCTETS =
  /^(\d+)-(\d+)$/
    .exec(process.env.BENCH_TAB_OCTETS ?? '')
    ?.slice(1, 3)
    .map(Number) ?? null;

/** The gateway as production runs it: its own process, with the flags of `npm start`, logging at info. */
interface GatewayProcess {
  url: string;
  metricsUrl: string;
  child: ChildProcess;
  port: number;
  metricsPort: number;
}

/** A gateway's environment: with two gateways on Redis with the run's own prefix, the rebalancer on in the rebalance case. */
function gatewayEnv(): Record<string, string> {
  if (!TWO) return { REDIS_URL: '' };
  return { REDIS_URL, REDIS_PREFIX, GATEWAY_REBALANCE: REBALANCE_ON ? '1' : '0' };
}

async function startGatewayProcess(
  apiUrl: string,
  ports?: { port: number; metricsPort: number },
  index = 0,
): Promise<GatewayProcess> {
  // The second gateway on BENCH_PORT_BASE + 3 and + 4.
  const base = PORT_BASE !== null ? PORT_BASE + 3 * index : null;
  const port = ports?.port ?? base ?? (await freePort());
  // The gateway serves /metrics on a port of its own (METRICS_PORT).
  const metricsPort = ports?.metricsPort ?? (base !== null ? base + 1 : await freePort());
  // BENCH_GATEWAY_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the gateway under this load.
  const nodeArgs = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // The gateway as `npm start` and the image run it: built ahead (scripts/build-gateway.mjs, README Part 18);
  // BENCH_GATEWAY_SOURCES=1 runs its sources through tsx instead (compiled at every start).
  const bundle = process.env.BENCH_GATEWAY_SOURCES === '1' ? null : await gatewayBundle();
  const entry = bundle ? [bundle] : ['--import', 'tsx', join(root, 'gateway/src/main.ts')];
  const args = ['--max-semi-space-size=32', ...nodeArgs, ...entry];
  const limit = openFileLimit();
  const raise = limit !== null && limit < GATEWAY_OPEN_FILES;
  const child = spawn(
    raise ? 'prlimit' : process.execPath,
    raise ? [`--nofile=${GATEWAY_OPEN_FILES}:${GATEWAY_OPEN_FILES}`, '--', process.execPath, ...args] : args,
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        API_URL: apiUrl,
        ...gatewayEnv(),
        LOG_LEVEL: process.env.BENCH_GATEWAY_LOG_LEVEL ?? 'info',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  const metricsUrl = `http://127.0.0.1:${metricsPort}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}`);
    if (
      await fetch(`${metricsUrl}/metrics`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, metricsUrl, child, port, metricsPort };
    if (i > 600) throw new Error('gateway did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function metric(url: string, name: string): Promise<number> {
  // A gateway under a storm at load 20 may not answer at once: three tries, a second apart.
  let text = '';
  for (let attempt = 1; ; attempt++) {
    try {
      text = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
      break;
    } catch (err) {
      if (attempt === 3) throw new Error(`${url}/metrics: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : NaN;
}

async function restRate(
  loader: ChildProcess,
  url: string,
  token: string,
  seconds: number,
): Promise<{ rps: number; requests: number }> {
  const r = await ask<{ rps: number; requests: number; errors: number }>(
    loader,
    { type: 'run', url, token, concurrency: REST_CONCURRENCY, durationMs: seconds * 1000 },
    'rate',
  );
  if (r.errors > 0) log(`${r.errors} failed requests against ${url}`);
  return r;
}

/**
 * BENCH_API=process runs the api in a process of its own (api-worker.ts), on PostgreSQL with
 * BENCH_DATABASE_URL (a database of its own: it is migrated and seeded); the default keeps it in
 * this process on PGlite, as before. In this process it shared the event loop with the bench's own
 * work and, in a reconnect storm, opened about 2 upstreams a second (issue 34).
 */
const API_MODE = process.env.BENCH_API === 'process' ? 'process' : 'in-process';

interface BenchApiSide {
  url: string;
  engine: string;
  persons(count: number): Promise<{ token: string; personId: number }[]>;
  /** Upstream sockets open at the api. */
  upstreams(): Promise<number>;
  /** Live pushes, one per [personId, message], sent now. */
  publish(pushes: [number, Record<string, unknown>][]): void;
  close(): Promise<void>;
}

async function apiInThisProcess(port: number): Promise<BenchApiSide> {
  const modulePath = process.env.GATEWAY_BENCH_API_MODULE ?? join(root, 'api/src/server.ts');
  const { startApi } = (await import(pathToFileURL(modulePath).href)) as {
    startApi(o: { port?: number; seed?: boolean; dataDir?: string; logLevel?: string }): Promise<BenchApi>;
  };
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
  const api = await startApi({ port, seed: true, dataDir, logLevel: 'silent' });
  return {
    url: api.url,
    engine: 'pglite',
    persons: (count) => createBenchPersons(api, count),
    upstreams: async () => api.realtime.connectionCount(),
    publish: (pushes) => {
      for (const [personId, message] of pushes) void api.realtime.publish([personId], message);
    },
    close: async () => {
      await api.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function apiInItsOwnProcess(port: number): Promise<BenchApiSide> {
  const child = forkHelper(children, 'api-worker.ts', { BENCH_API_PORT: String(port) });
  const ready = await new Promise<{ url: string; engine: string }>((resolveReady, reject) => {
    child.once('exit', (code) => reject(new Error(`the bench api exited with ${code}`)));
    child.on('message', (m: { type: string; url: string; engine: string }) => m.type === 'ready' && resolveReady(m));
  });
  return {
    url: ready.url,
    engine: ready.engine,
    persons: async (count) => {
      const r = await ask<{ staff?: { token: string; personId: number }[]; error?: string }>(
        child,
        { type: 'persons', count },
        'persons',
      );
      if (!r.staff) throw new Error(`bench accounts: ${r.error}`);
      return r.staff;
    },
    upstreams: async () => (await ask<{ count: number }>(child, { type: 'upstreams' }, 'upstreams')).count,
    publish: (pushes) => {
      if (pushes.length > 0) child.send({ type: 'publish', pushes });
    },
    close: async () => {
      child.removeAllListeners('exit');
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ type: 'close' });
      await exited;
    },
  };
}

interface BalancerProcess {
  /** The balancer's process (a Node balancer-worker, or haproxy). */
  child: ChildProcess;
  url: string;
  /** Connections one gateway may have through this balancer (the gateways' descriptor bound, shared). */
  maxPerBackend: number | null;
  counts(): Promise<BalancerCounts>;
  /** Sends new connections to this gateway too. */
  add(gatewayUrl: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * BENCH_BALANCER=haproxy: Debian's haproxy as the two-gateway mode's balancers (gateway/bench/haproxy.ts,
 * README "Part 33"), one process per tab process as the Node ones (a process may hold 20,000
 * descriptors here, two per tab); the default stays the Node balancers (balancer-worker.ts).
 */
const BALANCER_KIND = process.env.BENCH_BALANCER === 'haproxy' ? 'haproxy' : 'node';
/**
 * With HAProxy: new connections each one takes a second at most (`rate-limit sessions`; 0: none). HAProxy
 * has no bound on handshakes in flight; without a pace the storm filled both gateways' accept queues
 * (README "Part 33"). 200 for each of the four: 800 a second, about what two gateways drain.
 */
const HAPROXY_SESSIONS_PER_SECOND = Number(process.env.BENCH_HAPROXY_RATE ?? 200);

/**
 * The balancers of the two-gateway mode, each in its own process on BENCH_PORT_BASE + 10 + i. Each
 * bounds its connections to one gateway so that all balancers together stay within what a gateway
 * process may hold open here (the hard limit, less one upstream per person and some to spare): a
 * survivor taking every tab of a killed gateway would run out of descriptors (EMFILE) otherwise.
 */
async function startBalancers(gatewayUrls: string[]): Promise<BalancerProcess[]> {
  const hard = hardOpenFileLimit();
  const maxPerBackend = hard === null ? null : Math.floor((hard - PERSONS - 1000) / BALANCERS);
  return Promise.all(
    Array.from({ length: BALANCERS }, async (_, i) => {
      const port = PORT_BASE !== null ? PORT_BASE + 10 + i : 0;
      if (BALANCER_KIND === 'haproxy') {
        const haproxy = await startHaproxy({
          port: port || (await freePort()),
          gateways: gatewayUrls,
          // The rebalance case adds the second gateway later.
          slots: 2,
          ...(maxPerBackend !== null && { maxPerBackend }),
          queueTimeoutMs: BALANCER_QUEUE_TIMEOUT_MS,
          // Two descriptors a connection and a pipe pair per four (splicing) within this process's limit.
          maxConnections: Math.floor((hard ?? 20_000) / 2.5) - 500,
          ...(HAPROXY_SESSIONS_PER_SECOND > 0 && { sessionsPerSecond: HAPROXY_SESSIONS_PER_SECOND }),
        });
        children.push(haproxy.child);
        return { ...haproxy, maxPerBackend };
      }
      const child = forkHelper(children, 'balancer-worker.ts');
      const { url } = await ask<{ url: string }>(
        child,
        {
          type: 'start',
          port,
          gateways: gatewayUrls,
          ...(maxPerBackend !== null && { maxPerBackend }),
          ...(BALANCER_IN_FLIGHT > 0 && {
            maxInFlightPerBackend: BALANCER_IN_FLIGHT,
            handshakeExchanges: BALANCER_HANDSHAKE_EXCHANGES,
            queueTimeoutMs: BALANCER_QUEUE_TIMEOUT_MS,
          }),
        },
        'started',
      );
      return {
        child,
        url,
        maxPerBackend,
        counts: () => ask<BalancerCounts>(child, { type: 'open' }, 'open'),
        add: async (gateway) => void (await ask(child, { type: 'add', gateway }, 'added')),
        close: async () => void (await ask(child, { type: 'close' }, 'closed')),
      };
    }),
  );
}

interface BalancerCounts {
  /** Connections closed at once (every gateway down or full). */
  refused: number;
  /** Waiting in the balancers' queues now. */
  queued: number;
  /** Answered 503 after the queue timeout (HAProxy in TCP mode closes them; its `econ`). */
  queueTimeouts: number;
  /** Whose clients left while queued. */
  queueAbandoned: number;
}

/** The balancers' counts, all balancers together. */
async function balancerCounts(balancers: BalancerProcess[]): Promise<BalancerCounts> {
  const answers = await Promise.all(balancers.map((b) => b.counts()));
  const total = (key: keyof BalancerCounts) => answers.reduce((sum, a) => sum + (a[key] ?? 0), 0);
  return {
    refused: total('refused'),
    queued: total('queued'),
    queueTimeouts: total('queueTimeouts'),
    queueAbandoned: total('queueAbandoned'),
  };
}

/**
 * Waits until the storm's work has drained, so that the fan-out measures the steady state: both
 * accept queues empty, no api call waiting, no connection queued in a balancer, no tab moved by a
 * rebalancer, and each gateway using under 0.3 of a core, three samples (1 s apart) in a row; at most BENCH_DRAIN_TIMEOUT_S.
 * Answers how long it took and the last sample.
 */
async function stormDrained(
  gateways: GatewayProcess[],
  balancers: BalancerProcess[],
): Promise<{ seconds: number; drained: boolean; last: unknown }> {
  const started = now();
  let calm = 0;
  let lastCpu: (number | null)[] = gateways.map(() => null);
  let lastMoved: number | null = null;
  let last: unknown = null;
  while (now() - started < DRAIN_TIMEOUT_S * 1000) {
    const [queues, metrics, counts] = await Promise.all([
      Promise.all(gateways.map((g) => acceptQueue(g.port))),
      Promise.all(gateways.map((g) => quickMetrics(g.metricsUrl))),
      balancerCounts(balancers),
    ]);
    const cpuTotals = metrics.map((m) => m?.gateway_process_cpu_seconds_total ?? null);
    const cpu = cpuTotals.map((c, i) => (c !== null && lastCpu[i] !== null ? round(c - lastCpu[i]!, 2) : null));
    lastCpu = cpuTotals;
    const apiWaiting = metrics.map((m) =>
      m ? (m['gateway_api_calls{state="identity"}'] ?? 0) + (m['gateway_api_calls{state="bulk"}'] ?? 0) : null,
    );
    // The rebalancer has settled: no tab moved since the last sample.
    const moved = metrics.reduce((sum, m) => sum + (m?.gateway_tabs_moved_total ?? 0), 0);
    const settled = lastMoved === moved;
    lastMoved = moved;
    last = { acceptQueue: queues, apiWaiting, balancerQueued: counts.queued, cpuPerSecond: cpu, tabsMoved: moved };
    const quiet =
      settled &&
      queues.every((q) => q === 0) &&
      apiWaiting.every((w) => w === 0) &&
      counts.queued === 0 &&
      cpu.every((c) => c !== null && c < 0.3);
    calm = quiet ? calm + 1 : 0;
    if (calm >= 3) return { seconds: round((now() - started) / 1000, 1), drained: true, last };
    await new Promise((r) => setTimeout(r, 1000));
  }
  log(`the storm's work did not drain within ${DRAIN_TIMEOUT_S} s: ${JSON.stringify(last)}`);
  return { seconds: round((now() - started) / 1000, 1), drained: false, last };
}

/**
 * Tells each tab process which gateway each of its tabs is on, from the Node balancers' relayed
 * connections (the tab's own end → the gateway's URL); answers how many tabs are known of how many.
 */
async function routeTabs(
  balancers: BalancerProcess[],
  gateways: GatewayProcess[],
  tabWorkers: ChildProcess[],
): Promise<{ known: number; total: number }> {
  const routes: [string, number][] = [];
  if (TWO && BALANCER_KIND === 'node')
    for (const b of balancers) {
      const r = await ask<{ routes: [string, string][] }>(b.child, { type: 'routes' }, 'routes');
      for (const [end, url] of r.routes) routes.push([end, gateways.findIndex((g) => g.url === url)]);
    }
  const answers = await Promise.all(
    tabWorkers.map((w) => ask<{ known: number; total: number }>(w, { type: 'routes', routes }, 'routed')),
  );
  return {
    known: answers.reduce((sum, a) => sum + a.known, 0),
    total: answers.reduce((sum, a) => sum + a.total, 0),
  };
}

/** Tabs each gateway holds now (its /metrics). */
async function socketsByGateway(gateways: GatewayProcess[]): Promise<number[]> {
  gateways.forEach((g, i) => {
    if (g.child.exitCode !== null || g.child.signalCode !== null)
      throw new Error(`gateway ${i + 1} ended (${g.child.exitCode ?? g.child.signalCode})`);
  });
  return Promise.all(gateways.map((g) => metric(g.metricsUrl, 'gateway_client_sockets')));
}

/**
 * What "a second gateway takes half when it starts" means here (issue 34, README "Part 27"): it holds
 * at least SHARE_TARGET of all the tabs, every tab connected, within SHARE_SECONDS. 0.45 is half
 * less the rebalancer's slack (an instance holding up to 10 % above the fair share moves nothing, so
 * two instances may settle at 0.55 / 0.45); the seconds count from the gateway listening (a second
 * gateway beside a full one) or from the storm's end, every tab back (a gateway restarted after a kill).
 */
const SHARE_TARGET = 0.45;
const SHARE_SECONDS = 30;

interface ShareTaken {
  /** Seconds from `from` (the storm's end, or the second gateway listening) until it held SHARE_TARGET; null: not within the window. */
  secondsToShare: number | null;
  /** The same from the gateway listening. */
  secondsToShareFromListening: number | null;
  /** Seconds from `from` until the rebalancer settled (no tab moved for 3 s, every tab connected); null: not within the window. */
  secondsToSettle: number | null;
  tabsByGateway: number[];
  share: number;
  /** Its share at each 1 s sample. */
  shareBySecond: number[];
  tabsMoved: number[];
}

/**
 * Samples every second, up to BENCH_REBALANCE_SECONDS, the tabs on each gateway, until gateway
 * `index` holds SHARE_TARGET of them with every tab connected and the rebalancer has settled (no tab
 * moved for three samples): the fan-out that follows measures the steady state, not the moves.
 */
async function takesItsShare(
  gateways: GatewayProcess[],
  index: number,
  tabs: number,
  from: number,
  listeningAt: number,
): Promise<ShareTaken> {
  const share = (ns: number[]) =>
    ns[index] /
    Math.max(
      1,
      ns.reduce((a, n) => a + n, 0),
    );
  const movedNow = async () => Promise.all(gateways.map((g) => metric(g.metricsUrl, 'gateway_tabs_moved_total')));
  const shareBySecond: number[] = [];
  let reachedAt: number | null = null;
  let settledAt: number | null = null;
  let byGateway = await socketsByGateway(gateways);
  let moved = await movedNow();
  let still = 0;
  const started = now();
  while (now() - started < REBALANCE_SECONDS * 1000) {
    await new Promise((r) => setTimeout(r, 1000));
    byGateway = await socketsByGateway(gateways);
    const movedThen = moved;
    moved = await movedNow();
    const all = byGateway.reduce((a, n) => a + n, 0) >= tabs;
    shareBySecond.push(round(share(byGateway), 3));
    if (reachedAt === null && all && share(byGateway) >= SHARE_TARGET) reachedAt = now();
    still = all && moved.every((m, i) => m === movedThen[i]) ? still + 1 : 0;
    if (still >= 3) {
      settledAt = now() - 3000;
      if (reachedAt !== null) break;
    } else settledAt = null;
    log(
      `share at ${round((now() - from) / 1000, 1)} s: ${byGateway.join(' / ')} tabs (${shareBySecond.at(-1)}), moved ${moved.join(' / ')}`,
    );
  }
  const since = (t: number | null, origin: number) => (t === null ? null : round((t - origin) / 1000, 1));
  return {
    secondsToShare: since(reachedAt, from),
    secondsToShareFromListening: since(reachedAt, listeningAt),
    secondsToSettle: since(settledAt, from),
    tabsByGateway: byGateway,
    share: round(share(byGateway), 3),
    shareBySecond,
    tabsMoved: moved,
  };
}

/**
 * The rebalance case: every tab is on the first gateway; the second starts (both with
 * GATEWAY_REBALANCE=1), the balancers send new connections to it too, and the first closes whole
 * persons' connections until both hold about half (takesItsShare).
 */
async function secondGatewayJoins(apiUrl: string, gateways: GatewayProcess[], balancers: BalancerProcess[]) {
  const startedAt = now();
  const second = await startGatewayProcess(apiUrl, undefined, 1);
  const listeningAt = now();
  gateways.push(second);
  await Promise.all(balancers.map((b) => b.add(second.url)));
  log(
    `second gateway at ${second.url} (started in ${round((listeningAt - startedAt) / 1000, 1)} s); sampling for up to ${REBALANCE_SECONDS} s`,
  );
  const taken = await takesItsShare(gateways, 1, PERSONS * TABS_PER_PERSON, listeningAt, listeningAt);
  log(`rebalance: ${JSON.stringify(taken)}`);
  return { gatewayStartSeconds: round((listeningAt - startedAt) / 1000, 1), ...taken };
}

interface StormSample {
  /** Seconds since the kill. */
  t: number;
  /** Connections waiting in each gateway's accept queue (`ss -ltn` Recv-Q; null: not listening). */
  acceptQueue: (number | null)[];
  /** Tabs each gateway holds (null: not answering). */
  tabs: (number | null)[];
  /** Identity lookups and upstream opens waiting for a turn at the api, per gateway. */
  apiWaiting: (number | null)[];
  /** CPU seconds each gateway used since the last sample. */
  cpu: (number | null)[];
  /** Connections waiting in the balancers' queues. */
  balancerQueued: number;
}

/** A gateway's accept queue now (Recv-Q of its listening socket), null when nothing listens. */
function acceptQueue(port: number): Promise<number | null> {
  return new Promise((resolveQueue) =>
    execFile('ss', ['-ltnH', `sport = :${port}`], (err, out) => {
      const recvQ = err ? NaN : Number(out.trim().split(/\s+/)[1]);
      resolveQueue(Number.isFinite(recvQ) ? recvQ : null);
    }),
  );
}

/** A few of a gateway's metrics in one try (a gateway being started or killed does not answer). */
async function quickMetrics(url: string): Promise<Record<string, number> | null> {
  try {
    const text = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(1500) })).text();
    const values: Record<string, number> = {};
    for (const line of text.split('\n')) {
      const [name, value] = line.split(' ');
      if (name && !name.startsWith('#')) values[name] = Number(value);
    }
    return values;
  } catch {
    return null;
  }
}

/**
 * Samples every 2 s, during the storm, each gateway's accept queue, tabs, api calls waiting and CPU:
 * where a slow storm's time goes (the accept queue, the api, the gateway's CPU). Two-gateway mode.
 */
function sampleStorm(
  gateways: GatewayProcess[],
  balancers: BalancerProcess[],
  killedAt: number,
): { stop(): StormSample[] } {
  const samples: StormSample[] = [];
  const lastCpu: (number | null)[] = gateways.map(() => null);
  let running = true;
  void (async () => {
    while (running) {
      const t = round((now() - killedAt) / 1000, 1);
      const [queues, metrics, counts] = await Promise.all([
        Promise.all(gateways.map((g) => acceptQueue(g.port))),
        Promise.all(gateways.map((g) => quickMetrics(g.metricsUrl))),
        balancerCounts(balancers),
      ]);
      const cpu = metrics.map((m, i) => {
        const total = m?.gateway_process_cpu_seconds_total ?? null;
        const used =
          total !== null && lastCpu[i] !== null && total >= lastCpu[i]! ? round(total - lastCpu[i]!, 2) : null;
        lastCpu[i] = total;
        return used;
      });
      samples.push({
        t,
        acceptQueue: queues,
        tabs: metrics.map((m) => m?.gateway_client_sockets ?? null),
        apiWaiting: metrics.map((m) =>
          m ? (m['gateway_api_calls{state="identity"}'] ?? 0) + (m['gateway_api_calls{state="bulk"}'] ?? 0) : null,
        ),
        cpu,
        balancerQueued: counts.queued,
      });
      log(`storm at ${t} s: ${JSON.stringify(samples.at(-1))}`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  })();
  return {
    stop: () => {
      running = false;
      return samples;
    },
  };
}

/** The run's own keys in Redis (its REDIS_PREFIX), removed at the end. */
async function dropRedisKeys(): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${REDIS_PREFIX}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}

async function main(): Promise<void> {
  if (BALANCER_KIND === 'haproxy') {
    if (!TWO) throw new Error('BENCH_BALANCER=haproxy is for the two-gateway mode: set BENCH_GATEWAYS=2');
    assertHaproxy();
  }
  const limit = openFileLimit();
  if (!TWO && limit !== null && limit < GATEWAY_OPEN_FILES && process.getuid?.() !== 0)
    throw new Error(
      `the gateway would hold about ${GATEWAY_OPEN_FILES} open files (${PERSONS * TABS_PER_PERSON} tabs, ${PERSONS} upstreams), more than the ${limit} a process may open here (ulimit -n), and only root may raise it: raise the limit or lower BENCH_PERSONS`,
    );
  const apiPort = PORT_BASE !== null ? PORT_BASE + 2 : 0;
  const api = API_MODE === 'process' ? await apiInItsOwnProcess(apiPort) : await apiInThisProcess(apiPort);
  log(
    `api (${api.engine}, ${API_MODE === 'process' ? 'its own process' : 'in the bench process'}) at ${api.url}; creating ${PERSONS} accounts`,
  );
  const staff = await api.persons(PERSONS);
  const tokens = staff.map((s) => s.token);
  const personIds = staff.map((s) => s.personId);

  // With two gateways both start at once, except in the rebalance case (the second comes later).
  const gateways = [await startGatewayProcess(api.url)];
  if (TWO && !REBALANCE) gateways.push(await startGatewayProcess(api.url, undefined, 1));
  let gateway = gateways[0];
  const rssBefore = await metric(gateway.metricsUrl, 'gateway_process_resident_memory_bytes');
  const balancers = TWO ? await startBalancers(gateways.map((g) => g.url)) : [];
  log(
    `${gateways.length} gateway(s) at ${gateways.map((g) => g.url).join(', ')}${TWO ? ` behind ${balancers.length} ${BALANCER_KIND} balancer process(es)` : ''}; opening ${PERSONS * TABS_PER_PERSON} tabs in ${TAB_WORKERS} processes`,
  );
  // The tabs are spread over several processes (as they are over browsers in life), each person's
  // five in one of them, so one client process's pauses do not stand for the gateway's.
  const tabWorkers = Array.from({ length: TAB_WORKERS }, () => forkHelper(children, 'tabs-worker.ts'));
  const opened = await Promise.all(
    tabWorkers.map((worker, w) =>
      ask<{ count: number; failed: number; firstError: string }>(
        worker,
        {
          type: 'open',
          url: TWO ? balancers[w % balancers.length].url : gateway.url,
          tokens: tokens.filter((_, i) => i % TAB_WORKERS === w),
          addresses: tokens.map((_, i) => tabAddress(i)).filter((_, i) => i % TAB_WORKERS === w),
          tabsPerPerson: TABS_PER_PERSON,
        },
        'opened',
      ),
    ),
  );
  const tabCount = opened.reduce((sum, o) => sum + o.count, 0);
  const tabsFailed = opened.reduce((sum, o) => sum + o.failed, 0);
  if (tabsFailed > 0)
    throw new Error(
      `${tabsFailed} of ${PERSONS * TABS_PER_PERSON} tabs did not open: ${opened.find((o) => o.firstError)?.firstError}`,
    );
  // Every person's upstream is open (and its counters loaded) before the clock starts.
  for (let i = 0; i < 600 && (await api.upstreams()) < PERSONS; i++) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 1000));
  const tabsByGatewayOpened = await socketsByGateway(gateways);
  if (TWO) log(`tabs by gateway after opening: ${tabsByGatewayOpened.join(' / ')}`);
  const rebalance = REBALANCE ? await secondGatewayJoins(api.url, gateways, balancers) : null;

  // The reconnect storm: the gateway is killed (-9) and started again on the same port; every tab
  // comes back by itself (as the console's do) and gets its counters again.
  // With two gateways the second is killed: its tabs come back through the balancers, to the
  // survivor while it is away and to both once it listens again.
  const victim = gateways.length - 1;
  gateway = gateways[victim];
  log(`killing gateway ${victim + 1} of ${gateways.length} under ${tabCount} tabs and starting it again`);
  const tell = (type: string, reply: string) => Promise.all(tabWorkers.map((w) => ask(w, { type }, reply)));
  await tell('arm', 'armed');
  const overflowsBefore = listenOverflows();
  const killedAt = now();
  // The sampler reads the gateways array, in which the restarted gateway replaces the killed one.
  const sampler = TWO ? sampleStorm(gateways, balancers, killedAt) : null;
  // Each process's CPU over the storm (the restarted gateway's is in the samples), and the machine's.
  const stormCpuWindow = startCpuWindow(children);
  gateway.child.kill('SIGKILL');
  await new Promise((r) => gateway.child.once('exit', r));
  const restartedAt = now();
  gateway = gateways[victim] = await startGatewayProcess(api.url, gateway, victim);
  const listeningAt = now();
  await tell('restarted', 'noted');
  const storm = await Promise.all(
    tabWorkers.map((w) =>
      ask<{
        at: number;
        back: number;
        total: number;
        lost: number;
        countersChanged: number;
        refusals: Record<string, number>;
        transportErrorsWhileUp: number;
      }>(w, { type: 'back', timeoutMs: RECONNECT_TIMEOUT_S * 1000 }, 'back'),
    ),
  );
  const stormCpuSeconds = stormCpuWindow();
  const stormSamples = sampler?.stop() ?? [];
  const stormRefusals: Record<string, number> = {};
  for (const w of storm)
    for (const [code, n] of Object.entries(w.refusals)) stormRefusals[code] = (stormRefusals[code] ?? 0) + n;
  const reconnect = {
    tabsBack: storm.reduce((sum, w) => sum + w.back, 0),
    tabsThatLostTheirConnection: storm.reduce((sum, w) => sum + w.lost, 0),
    secondsFromKill: round((Math.max(...storm.map((w) => w.at)) - killedAt) / 1000, 1),
    secondsFromStart: round((Math.max(...storm.map((w) => w.at)) - restartedAt) / 1000, 1),
    gatewayStartSeconds: round((listeningAt - restartedAt) / 1000, 1),
    countersChanged: storm.reduce((sum, w) => sum + w.countersChanged, 0),
    refusals: stormRefusals,
    refusals5xx: Object.entries(stormRefusals)
      .filter(([code]) => Number(code) >= 500)
      .reduce((sum, [, n]) => sum + n, 0),
    transportErrorsWhileUp: storm.reduce((sum, w) => sum + w.transportErrorsWhileUp, 0),
    // The whole machine's count (other programs' too): 0 means no connection was dropped.
    listenOverflows: listenOverflows() - overflowsBefore,
    ...(TWO && {
      balancers: await balancerCounts(balancers),
      balancerQueuedMax: Math.max(0, ...stormSamples.map((x) => x.balancerQueued ?? 0)),
      // Per gateway: the longest accept queue, and the CPU seconds it used, over the storm's samples.
      acceptQueueMax: gateways.map((_, i) => Math.max(0, ...stormSamples.map((x) => x.acceptQueue[i] ?? 0))),
      cpuSeconds: gateways.map((_, i) =>
        round(
          stormSamples.reduce((sum, x) => sum + (x.cpu[i] ?? 0), 0),
          1,
        ),
      ),
      samples: stormSamples.length,
    }),
    stormCpuSeconds,
  };
  log(`reconnect: ${JSON.stringify(reconnect)}`);
  const tabsByGatewayAfterStorm = await socketsByGateway(gateways);
  // With the rebalancer: how soon the restarted gateway holds its share, from the storm's end (every
  // tab back) and from its listening, and the fan-out only once the moves have settled.
  const stormEndedAt = Math.max(...storm.map((w) => w.at));
  const afterStorm =
    TWO && REBALANCE_ON ? await takesItsShare(gateways, victim, tabCount, stormEndedAt, listeningAt) : null;
  if (afterStorm) log(`after the storm: ${JSON.stringify(afterStorm)}`);
  for (let i = 0; i < 600 && (await api.upstreams()) < PERSONS; i++) await new Promise((r) => setTimeout(r, 100));
  // With two gateways a lease in Redis gives each person's upstream to one of them (lease.ts): the
  // api's count is the gateways' sum, one per person once a moved person's old upstream has closed.
  const upstreamsByGateway = async () =>
    Promise.all(gateways.map((g) => metric(g.metricsUrl, 'gateway_upstream_connections')));
  const sum = (ns: number[]) => ns.reduce((a, n) => a + n, 0);
  for (let i = 0; i < 100 && sum(await upstreamsByGateway()) !== (await api.upstreams()); i++)
    await new Promise((r) => setTimeout(r, 100));
  const upstreamApi = await api.upstreams();
  const upstreamsAtGateways = await upstreamsByGateway();
  const upstreamGateway = sum(upstreamsAtGateways);
  const sockets = tabsByGatewayAfterStorm.reduce((sum, n) => sum + n, 0);
  gateway = gateways[0];
  const rssWithTabs = await metric(gateway.metricsUrl, 'gateway_process_resident_memory_bytes');
  // The fan-out measures the steady state after the storm, not its tail (Part 17's run 9: each
  // second's p99 falling 297 → 17 ms while the storm's work drained).
  const drain = TWO ? await stormDrained(gateways, balancers) : null;
  if (drain) log(`storm drained after ${drain.seconds} s more: ${JSON.stringify(drain.last)}`);
  // Which gateway each tab is on (the Node balancers' relayed connections): the fan-out's latency is split
  // by it, so the tabs on the gateway holding the upstreams and those behind the Redis hop show apart
  // (README "Part 38"). HAProxy's connections are not read: every tab counts as unknown there.
  const tabsRouted = await routeTabs(balancers, gateways, tabWorkers);
  if (TWO) log(`tabs whose gateway is known: ${JSON.stringify(tabsRouted)}`);
  /** The tab processes' own event-loop delay (ms) over the last collect's interval, one per process. */
  let tabLoopDelay: { p50: number; p99: number; max: number }[] = [];
  /** Every delivery since the last call, as { at, ms, gateway } (arrival time, latency, the tab's gateway or -1). */
  const collect = async () => {
    const answers = await Promise.all(
      tabWorkers.map((w) =>
        ask<{ values: number[]; loopDelay: { p50: number; p99: number; max: number } }>(
          w,
          { type: 'collect' },
          'latencies',
        ),
      ),
    );
    tabLoopDelay = answers.map((a) => a.loopDelay);
    return answers.flatMap(({ values }) =>
      Array.from({ length: values.length / 3 }, (_, i) => ({
        at: values[3 * i],
        ms: values[3 * i + 1],
        gateway: values[3 * i + 2],
      })),
    );
  };

  /** Pushes EVENTS_PER_SECOND events spread over the persons for `seconds`; answers how many and the rate. */
  let nextId = 0;
  const push = async (seconds: number): Promise<{ sent: number; rate: number }> => {
    const started = Date.now();
    let sent = 0;
    const batch: [number, Record<string, unknown>][] = [];
    while (Date.now() - started < seconds * 1000) {
      const due = Math.floor(((Date.now() - started) / 1000) * EVENTS_PER_SECOND);
      for (; sent < due; sent++, nextId++) {
        const personId = personIds[nextId % personIds.length];
        batch.push([personId, { channelType: 9, dataId: nextId, sentAt: now() }]);
      }
      api.publish(batch.splice(0));
      await new Promise((r) => setTimeout(r, 2));
    }
    // Whatever is still on its way arrives before the next phase.
    await new Promise((r) => setTimeout(r, 2000));
    return { sent, rate: sent / ((Date.now() - 2000 - started) / 1000) };
  };

  // A service runs for days: the first seconds at full rate (code still being optimized by the
  // JIT in four processes) are measured and reported apart, then the steady state is measured.
  log(`warming up: ${EVENTS_PER_SECOND} events/s for ${WARMUP_SECONDS} s`);
  await collect();
  const warmup = await push(WARMUP_SECONDS);
  const warmupLatencies = (await collect()).map((d) => d.ms).sort((a, b) => a - b);
  log(`pushing ${EVENTS_PER_SECOND} events/s for ${EVENT_SECONDS} s`);
  const cpuWindow = startCpuWindow(children);
  const measured = await push(EVENT_SECONDS);
  // Each process's CPU seconds over the measured seconds (and the 2 s after): who is short of CPU.
  const fanOutCpuSeconds = cpuWindow();
  const deliveries = await collect();
  const fanOutTabLoopDelayMs = tabLoopDelay;
  const sorted = deliveries.map((d) => d.ms).sort((a, b) => a - b);
  // The latency of the tabs on each gateway (with every upstream on one of them, the other's tabs get
  // every event through the Redis stream), and of the tabs whose gateway is not known.
  const latencyByGateway = TWO
    ? [...gateways.map((_, i) => i), -1].map((index) => {
        const ms = deliveries
          .filter((d) => d.gateway === index)
          .map((d) => d.ms)
          .sort((a, b) => a - b);
        return {
          gateway: index < 0 ? 'unknown' : index + 1,
          upstreams: index < 0 ? null : upstreamsAtGateways[index],
          deliveries: ms.length,
          p50Ms: ms.length ? round(percentile(ms, 50)) : null,
          p99Ms: ms.length ? round(percentile(ms, 99)) : null,
          maxMs: ms.length ? round(ms[ms.length - 1]) : null,
        };
      })
    : null;
  // p99 of each second of the measured run: shows whether a high p99 is one pause or a steady cost.
  const bySecond = new Map<number, number[]>();
  const firstAt = deliveries.reduce((min, d) => Math.min(min, d.at), Infinity);
  for (const d of deliveries) {
    const second = Math.floor((d.at - firstAt) / 1000);
    const list = bySecond.get(second);
    if (list) list.push(d.ms);
    else bySecond.set(second, [d.ms]);
  }
  const p99PerSecond = [...bySecond.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, ms]) =>
      round(
        percentile(
          ms.sort((a, b) => a - b),
          99,
        ),
        1,
      ),
    );
  const sent = measured.sent;
  // Where the upstreams are after the fan-out, and how many were handed over since the start: with
  // GATEWAY_LEASE_FOLLOWS_TABS=1 they may move during it, after `upstreamsByGateway` was read.
  const upstreamsAfterFanOut = TWO ? await upstreamsByGateway() : null;
  const upstreamHandovers = TWO
    ? await Promise.all(gateways.map((g) => metric(g.metricsUrl, 'gateway_upstream_handovers_total')))
    : null;
  const rssAfterEvents = await metric(gateway.metricsUrl, 'gateway_process_resident_memory_bytes');

  // This machine's speed drifts by tens of percent over seconds, so direct and proxied are measured
  // in back-to-back pairs (order swapped each pair) and the ratio is the median of the pairs' ratios.
  log(`measuring REST throughput in ${REST_ROUNDS} alternating pairs (after a warm-up of both)`);
  const roundSeconds = REST_SECONDS / REST_ROUNDS;
  const loader = forkHelper(children, 'rest-load-worker.ts');
  const directUrl = `${api.url}/auth/current/user`;
  const proxiedUrl = `${gateway.url}/api/auth/current/user`;
  const direct = async () => (await restRate(loader, directUrl, tokens[0], roundSeconds)).rps;
  // The gateway's own CPU time per proxied call (from its /metrics), to see what the hop costs.
  let proxiedRequests = 0;
  // (user = JavaScript and V8; system = mostly the kernel's loopback TCP work, charged to the sender).
  const gatewayCpu = { user: 0, system: 0 };
  const proxied = async () => {
    const userBefore = await metric(gateway.metricsUrl, 'gateway_process_cpu_user_seconds_total');
    const systemBefore = await metric(gateway.metricsUrl, 'gateway_process_cpu_system_seconds_total');
    const r = await restRate(loader, proxiedUrl, tokens[0], roundSeconds);
    gatewayCpu.user += (await metric(gateway.metricsUrl, 'gateway_process_cpu_user_seconds_total')) - userBefore;
    gatewayCpu.system += (await metric(gateway.metricsUrl, 'gateway_process_cpu_system_seconds_total')) - systemBefore;
    proxiedRequests += r.requests;
    return r.rps;
  };
  await restRate(loader, directUrl, tokens[0], 1.5);
  await restRate(loader, proxiedUrl, tokens[0], 1.5);
  const pairs: { direct: number; proxied: number }[] = [];
  for (let round = 0; round < REST_ROUNDS; round++) {
    if (round % 2 === 0) {
      const d = await direct();
      pairs.push({ direct: d, proxied: await proxied() });
    } else {
      const p = await proxied();
      pairs.push({ direct: await direct(), proxied: p });
    }
  }
  await ask(loader, { type: 'close' }, 'closed');
  const pairRatios = pairs.map((p) => p.proxied / p.direct).sort((a, b) => a - b);
  const directRps = pairs.reduce((sum, p) => sum + p.direct, 0) / REST_ROUNDS;
  const proxiedRps = pairs.reduce((sum, p) => sum + p.proxied, 0) / REST_ROUNDS;

  await Promise.all(tabWorkers.map((w) => ask(w, { type: 'close' }, 'closed')));
  await Promise.all(balancers.map((b) => b.close()));
  for (const g of gateways) {
    const exited = new Promise((r) => g.child.once('exit', r));
    g.child.kill('SIGTERM');
    await exited;
  }
  if (TWO) await dropRedisKeys();
  keysDropped = true;
  await api.close();

  const p50 = percentile(sorted, 50);
  const p99 = percentile(sorted, 99);
  const ratio = median(pairRatios);
  const result = {
    bench: 'gateway',
    persons: PERSONS,
    api: { engine: api.engine, process: API_MODE },
    tabs: tabCount,
    ...(TWO && {
      gateways: GATEWAYS,
      balancer: BALANCER_KIND,
      ...(BALANCER_KIND === 'haproxy' && { haproxyRate: HAPROXY_SESSIONS_PER_SECOND || null }),
      balancers: balancers.length,
      balancerMaxPerGateway: balancers[0].maxPerBackend,
      tabsByGatewayOpened,
      tabsByGatewayAfterStorm,
      upstreamsByGateway: upstreamsAtGateways,
      afterStorm,
      rebalance,
      drain,
    }),
    clientSockets: sockets,
    upstreamConnections: upstreamGateway,
    upstreamConnectionsSeenByApi: upstreamApi,
    eventsSent: sent,
    eventsPerSecond: round(measured.rate, 0),
    deliveriesExpected: sent * TABS_PER_PERSON,
    deliveries: sorted.length,
    latencyP50Ms: round(p50),
    latencyP99Ms: round(p99),
    latencyP99PerSecondMs: p99PerSecond,
    ...(TWO && { latencyByGateway, tabsRouted, upstreamsAfterFanOut, upstreamHandovers }),
    fanOutTabLoopDelayMs,
    fanOutCpuSeconds,
    warmupSeconds: WARMUP_SECONDS,
    warmupDeliveries: warmupLatencies.length,
    warmupDeliveriesExpected: warmup.sent * TABS_PER_PERSON,
    warmupLatencyP99Ms: round(percentile(warmupLatencies, 99)),
    reconnect,
    gatewayRssMb: round(rssAfterEvents / 2 ** 20, 1),
    gatewayRssPerSocketKb: round((rssWithTabs - rssBefore) / (TWO ? tabsByGatewayAfterStorm[0] : tabCount) / 1024, 1),
    directRps: round(directRps, 0),
    proxiedRps: round(proxiedRps, 0),
    proxiedRatio: round(ratio, 3),
    gatewayCpuMsPerProxiedRequest: {
      user: round((gatewayCpu.user * 1000) / proxiedRequests, 3),
      system: round((gatewayCpu.system * 1000) / proxiedRequests, 3),
    },
    proxiedRatioPairs: pairRatios.map((r) => round(r, 3)),
    targets: {
      latencyP99Ms: 25,
      proxiedRatio: 0.85,
      upstreamConnections: PERSONS,
      reconnectSeconds: 30,
      ...(REBALANCE_ON && { share: SHARE_TARGET, shareSeconds: SHARE_SECONDS }),
    },
    tabWorkers: TAB_WORKERS,
    gatewayOpenFiles: GATEWAY_OPEN_FILES,
    load: loadavg().map((l) => round(l)),
    pass:
      reconnect.tabsBack === tabCount &&
      reconnect.secondsFromStart <= 30 &&
      reconnect.countersChanged === 0 &&
      reconnect.refusals5xx === 0 &&
      reconnect.transportErrorsWhileUp === 0 &&
      upstreamGateway === PERSONS &&
      upstreamApi === upstreamGateway &&
      sorted.length === sent * TABS_PER_PERSON &&
      p99 < 25 &&
      ratio >= 0.85 &&
      // With the rebalancer, the gateway that started takes its share (SHARE_TARGET within SHARE_SECONDS).
      [afterStorm, rebalance].every(
        (r) => r === null || (r.secondsToShare !== null && r.secondsToShare <= SHARE_SECONDS),
      ),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

let keysDropped = false;
runBench('gateway', async () => {
  try {
    await main();
  } finally {
    // A failed run ends its processes and deletes its Redis keys too.
    if (!keysDropped) await endChildrenAndDropKeys();
  }
});
