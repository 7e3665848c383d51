// The cost of an ordinary call (issue 34), run by `npm run bench call-cost`. Starts, on each
// engine (PostgreSQL: a fresh schema with the demo estate; PGlite: a fresh data directory), the
// api process, the gateway process in front of it and a plain node:http pipe in front of it
// (call-cost-pipe.mjs, the yardstick), signs in as the demo administrator, and measures a
// representative set of calls (current user, counters, a complaint by id, a 10-row list page of
// complaints and of work orders): CONNECTIONS kept-alive connections drive one call for one-second
// turns through the pipe and as long through the gateway. For each call it reports the CPU time
// per call (user + system, from /proc) of the pipe, the api, the PostgreSQL backends serving the
// api (found by application_name) and the gateway, and the api's, the database's and the
// gateway's CPU as ratios to the pipe's in the same run (absolute times vary from machine to
// machine; the ratios are the figures that count).
//
// The yardstick is measured in the same conditions for every call (README Part 25): all the
// measured calls first warm the pipe, the api and the gateway together (BENCH_WARMUP_SECONDS),
// then the turns go round the calls (call A's turn, call B's, …, SECONDS rounds), so no call is
// divided by a pipe colder, or measured on a machine busier, than another's. Before, each call was
// warmed for one second and measured in a block, one call after the other (and BENCH_CALLS did
// not set the order): the first call measured cost the pipe 1.6–3.4 times what the second did per
// call, and the api 1.5–3.2 times (neither had finished warming), so a call's ratios depended
// on its place in the list. The CPU per call of every process still falls as its calls per
// second rise (more events per wake-up), so compare ratios, not absolute times, between runs.
//
// Every answer must be 200: a call answered otherwise fails the bench. Prints exactly one JSON line.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { WebSocket } from 'ws';
import { benchLog, cpuMs, postgresSchema, round } from './kit';
import { freePort } from '../test/kit/api-process';
import { createPgEventBus } from '../src/modules/realtime/pg-event-bus';
import { gatewayBundle } from '../../scripts/build-gateway.mjs';
import type { EventBus } from '../src/modules/realtime/event-bus';

const root = resolve(import.meta.dirname, '../..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ENGINES = (process.env.BENCH_ENGINES ?? 'postgres,pglite').split(',');
/** Extra node flags for the api, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it under this load. */
const API_NODE_ARGS = (process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** The same for the gateway. */
const GATEWAY_NODE_ARGS = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean);
/**
 * Another gateway entry point, run through tsx (e.g. another checkout's gateway/src/main.ts, for
 * before/after runs). Without it the gateway runs as `npm start` and the image run it: built ahead,
 * gateway/dist/main.js (README Part 18; tsx adds per-call work of its own, e.g. `__name` for methods).
 */
const GATEWAY_MAIN = process.env.BENCH_GATEWAY_MAIN;
/**
 * Another api entry point: a built .js file runs under plain `node` (api/dist/main.js, as `npm start`
 * runs it), anything else through tsx (e.g. another checkout's api/src/main.ts). Default: this
 * checkout's api/src/main.ts through tsx.
 */
const API_MAIN = process.env.BENCH_API_MAIN ?? join(root, 'api/src/main.ts');
/** BENCH_GATEWAY=off measures the api through the pipe only (no gateway phase; its figures null). */
const WITH_GATEWAY = process.env.BENCH_GATEWAY !== 'off';
/**
 * The calls' Accept-Encoding (a browser's by default); BENCH_ACCEPT_ENCODING=identity measures the
 * answers uncompressed, i.e. what compressing them costs the api per call.
 */
const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? 'gzip, deflate, br';
/**
 * BENCH_CALLS=counters,complaintList10 measures only those calls (names as in the JSON line), in
 * that order within each round of turns.
 */
const ONLY_CALLS = process.env.BENCH_CALLS?.split(',');
/**
 * BENCH_WARMUP_SECONDS: how long every measured call is driven, one second each in turn, through
 * the pipe (and the gateway) before any is measured (default 10; at least one round).
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
/**
 * The signed-in person's upstream, as the gateway holds it while the person has a tab open (the
 * api keeps their live counters while it holds one: counters-cache.ts). BENCH_UPSTREAM=off: none.
 */
const WITH_UPSTREAM = process.env.BENCH_UPSTREAM !== 'off';
/**
 * BENCH_KEPT_DROPS_PER_SECOND (PostgreSQL only): during the measured turns, another api process's
 * write is announced this often on the bus (`{ kind: 'kept' }`, as a write on another process
 * announces it), so the api drops its kept answers (list pages, records by id) and reads them
 * again: the kept calls' cost when the tables they read are written at that rate. Unset: none.
 */
const KEPT_DROPS_PER_SECOND = Number(process.env.BENCH_KEPT_DROPS_PER_SECOND ?? 0);
/**
 * BENCH_PORT_BASE: the api listens on it, the pipe on +1, the gateway on +2, its metrics on +3
 * (a machine shared by several people gives each a range); unset, free ports.
 */
const PORT_BASE = process.env.BENCH_PORT_BASE ? Number(process.env.BENCH_PORT_BASE) : null;
const portOf = (offset: number): Promise<number> =>
  PORT_BASE === null ? freePort() : Promise.resolve(PORT_BASE + offset);
const log = benchLog('call-cost');
/** Milliseconds to the microsecond. */
const ms3 = (n: number): number => Math.round(n * 1000) / 1000;

/** p50 and p99 of the times, ms to the microsecond. */
function latency(times: number[]): { p50: number; p99: number } {
  const sorted = times.slice().sort((a, b) => a - b);
  const at = (q: number) => ms3(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return { p50: at(0.5), p99: at(0.99) };
}

const children: ChildProcess[] = [];
process.on('exit', () => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL')));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

interface Call {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

/** A file the api's log lines go to (BENCH_API_LOG), to see why a call was not answered 200. */
const API_LOG = process.env.BENCH_API_LOG;

function start(name: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', name === 'api' && API_LOG ? openSync(API_LOG, 'a') : 'ignore', 'inherit'],
  });
  child.once('exit', (code, signal) => {
    if (!stopping) {
      log(`${name} exited (${code ?? signal}) during the run`);
      process.exit(1);
    }
  });
  children.push(child);
  return child;
}
let stopping = false;

async function until(url: string, what: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not start`);
}

/** One call over the kept-alive agent; resolves with the status once the answer is read. */
function request(agent: http.Agent, base: URL, call: Call, token: string): Promise<number> {
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  return new Promise((resolveStatus, reject) => {
    const req = http.request(
      {
        host: base.hostname,
        port: base.port,
        method: call.method,
        path: base.pathname.replace(/\/$/, '') + call.path,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'accept-encoding': ACCEPT_ENCODING,
          ...(body && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
      },
      (res) => {
        res.resume();
        res.once('end', () => resolveStatus(res.statusCode ?? 0));
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

/**
 * CONNECTIONS loops calling `call` until `ms` have passed; the number of calls and of non-200
 * answers, and (given `times`) each call's time from its request to its answer's end, in ms.
 */
async function drive(
  base: URL,
  call: Call,
  token: string,
  ms: number,
  times?: number[],
): Promise<{ calls: number; failed: number[] }> {
  const deadline = Date.now() + ms;
  let calls = 0;
  const failed: number[] = [];
  // Connections of its own, closed at the end: a kept-alive one the server closed while idle
  // between two phases would fail the next call.
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < deadline) {
        const sent = performance.now();
        const status = await request(agent, base, call, token);
        times?.push(performance.now() - sent);
        calls++;
        if (status !== 200) failed.push(status);
      }
    }),
  );
  agent.destroy();
  return { calls, failed };
}

interface Engine {
  api: ChildProcess;
  apiUrl: string;
  /** PIDs of the PostgreSQL backends serving the api (none on PGlite). */
  backends(): Promise<number[]>;
  /** The api's bus as another api process sees it (PostgreSQL), for BENCH_KEPT_DROPS_PER_SECOND. */
  bus?: EventBus;
  close(): Promise<void>;
}

async function startApi(engine: string): Promise<Engine> {
  const port = await portOf(0);
  const env: Record<string, string> = {
    API_PORT: String(port),
    API_HOST: '127.0.0.1',
    API_METRICS_PORT: 'off',
    LOG_LEVEL: 'info',
    SEED_DEMO: '1',
    // The answer-schema check is for tests (vitest sets it): never part of a call's cost here.
    API_CHECK_ANSWERS: '0',
  };
  let cleanup: () => Promise<void>;
  let backends: () => Promise<number[]> = async () => [];
  let bus: EventBus | undefined;
  if (engine === 'postgres') {
    const schema = await postgresSchema();
    if (!schema) throw new Error('no PostgreSQL server (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
    const appName = `call_cost_${process.pid}`;
    const url = new URL(schema.url);
    url.searchParams.set('application_name', appName);
    env.DATABASE_URL = url.toString();
    const admin = new pg.Client({ connectionString: schema.url });
    await admin.connect();
    backends = async () =>
      (
        await admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [appName])
      ).rows.map((r) => r.pid);
    if (KEPT_DROPS_PER_SECOND > 0) bus = await createPgEventBus({ connectionString: schema.url });
    cleanup = async () => {
      await bus?.close();
      await admin.end();
      await schema.drop();
    };
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'call-cost-'));
    env.DATA_DIR = dir;
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  const api = start('api', [...API_NODE_ARGS, ...(API_MAIN.endsWith('.js') ? [] : ['--import', 'tsx']), API_MAIN], env);
  const apiUrl = `http://127.0.0.1:${port}`;
  await until(`${apiUrl}/health`, 'the api');
  return {
    api,
    apiUrl,
    backends,
    bus,
    async close() {
      api.kill('SIGTERM');
      await new Promise((r) => api.once('exit', r));
      await cleanup();
    },
  };
}

/** Opens the person's upstream (`ws://api/{token}/{personId}`) and keeps it alive with heartbeats. */
async function openUpstream(apiUrl: string, token: string): Promise<{ close(): void }> {
  const me = (await (
    await fetch(`${apiUrl}/auth/current/user`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as {
    data: { accountInfo: { personId: number } };
  };
  const ws = new WebSocket(
    `${apiUrl.replace(/^http/, 'ws')}/${encodeURIComponent(token)}/${me.data.accountInfo.personId}`,
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const beat = setInterval(() => ws.send(JSON.stringify({ channelType: 'heartbeat' })), 10_000);
  return {
    close() {
      clearInterval(beat);
      ws.close();
    },
  };
}

async function measureEngine(engine: string): Promise<Record<string, unknown>> {
  log(`${engine}: starting the api (and seeding the demo estate)`);
  const e = await startApi(engine);
  const pipePort = await portOf(1);
  const pipe = start('pipe', [join(import.meta.dirname, 'call-cost-pipe.mjs')], {
    PIPE_TARGET: e.apiUrl,
    PIPE_PORT: String(pipePort),
  });
  const gatewayPort = await portOf(2);
  const gatewayMetrics = await portOf(3);
  const bundle = GATEWAY_MAIN ? null : await gatewayBundle();
  const entry = bundle ? [bundle] : ['--import', 'tsx', GATEWAY_MAIN ?? join(root, 'gateway/src/main.ts')];
  const gateway = start('gateway', [...GATEWAY_NODE_ARGS, ...entry], {
    PORT: String(gatewayPort),
    METRICS_PORT: String(gatewayMetrics),
    API_URL: e.apiUrl,
    REDIS_URL: '',
    LOG_LEVEL: 'info',
  });
  const pipeUrl = new URL(`http://127.0.0.1:${pipePort}/`);
  const gatewayUrl = new URL(`http://127.0.0.1:${gatewayPort}/api/`);
  await until(`http://127.0.0.1:${gatewayMetrics}/metrics`, 'the gateway');
  await until(`${pipeUrl}health`, 'the pipe');

  const signIn = await fetch(`${gatewayUrl}oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: 'admin123' }),
  });
  const token = ((await signIn.json()) as { access_token?: string }).access_token;
  if (!token) throw new Error(`sign-in answered ${signIn.status}`);
  const list = (await (
    await fetch(`${e.apiUrl}/complain/query/list`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ page: 1, limit: 10 }),
    })
  ).json()) as { data: { list: { complainId: number }[] } };
  const complaintId = list.data.list[0]?.complainId;
  if (!complaintId) throw new Error('the demo estate has no complaint');
  const upstream = WITH_UPSTREAM ? await openUpstream(e.apiUrl, token) : null;

  const calls: Call[] = [
    { name: 'currentUser', method: 'GET', path: '/auth/current/user' },
    { name: 'counters', method: 'GET', path: '/realtime/counters' },
    { name: 'complaintById', method: 'POST', path: `/complain/query/id/${complaintId}` },
    { name: 'complaintList10', method: 'POST', path: '/complain/query/list', body: { page: 1, limit: 10 } },
    { name: 'workOrderList10', method: 'POST', path: '/eventOrder/query/list', body: { page: 1, limit: 10 } },
  ];
  const measured = ONLY_CALLS
    ? ONLY_CALLS.map((name) => {
        const call = calls.find((c) => c.name === name);
        if (!call) throw new Error(`BENCH_CALLS: no call named ${name}`);
        return call;
      })
    : calls;
  // Warm up every path (JIT, connection pools, caches, the pipe as much as the api) with every
  // measured call in turn, until WARMUP_SECONDS have passed: no call is measured on processes
  // that another call has warmed more (README Part 25).
  const warmUntil = Date.now() + WARMUP_SECONDS * 1000;
  do
    for (const call of measured) {
      await drive(pipeUrl, call, token, 1000);
      if (WITH_GATEWAY) await drive(gatewayUrl, call, token, 1000);
    }
  while (Date.now() < warmUntil);
  const pids = await e.backends();
  interface Tally {
    pipe: { calls: number; failed: number[] };
    gateway: { calls: number; failed: number[] };
    pipeCpu: number;
    apiCpu: number;
    gatewayCpu: number;
    pipeTime: number;
    dbCpu: number[];
    /** Each call's time through the pipe (request to answer's end), ms. */
    times: number[];
  }
  const tallies = new Map<Call, Tally>(
    measured.map((call) => [
      call,
      {
        pipe: { calls: 0, failed: [] },
        gateway: { calls: 0, failed: [] },
        pipeCpu: 0,
        apiCpu: 0,
        gatewayCpu: 0,
        pipeTime: 0,
        dbCpu: pids.map(() => 0),
        times: [],
      },
    ]),
  );
  const drops = e.bus
    ? setInterval(() => void e.bus!.publish({ kind: 'kept', origin: 'call-cost bench' }), 1000 / KEPT_DROPS_PER_SECOND)
    : undefined;
  // One-second turns, SECONDS for each call in all: each round gives every call one turn through
  // the pipe (the api's and the database's CPU measured in the same second) and one through the
  // gateway, so a change in the machine's load (other processes) or in the processes' warmth falls
  // on every call and on every process alike, not on the call or the process measured first.
  for (let turn = 0; turn < SECONDS; turn++)
    for (const call of measured) {
      const t = tallies.get(call)!;
      const before = { pipe: cpuMs(pipe.pid!), api: cpuMs(e.api.pid!), db: pids.map(cpuMs) };
      const started = Date.now();
      const p = await drive(pipeUrl, call, token, 1000, t.times);
      t.pipeTime += (Date.now() - started) / 1000;
      t.pipeCpu += cpuMs(pipe.pid!) - before.pipe;
      t.apiCpu += cpuMs(e.api.pid!) - before.api;
      pids.forEach((pid, i) => (t.dbCpu[i] += Math.max(0, cpuMs(pid) - before.db[i])));
      t.pipe.calls += p.calls;
      t.pipe.failed.push(...p.failed);
      if (!WITH_GATEWAY) continue;
      const gatewayBefore = cpuMs(gateway.pid!);
      const g = await drive(gatewayUrl, call, token, 1000);
      t.gatewayCpu += cpuMs(gateway.pid!) - gatewayBefore;
      t.gateway.calls += g.calls;
      t.gateway.failed.push(...g.failed);
    }
  clearInterval(drops);
  const results: Record<string, unknown> = {};
  for (const [call, t] of tallies) {
    const pipeMs = t.pipeCpu / t.pipe.calls;
    const apiMs = t.apiCpu / t.pipe.calls;
    const dbMs = pids.length ? t.dbCpu.reduce((a, b) => a + b, 0) / t.pipe.calls : null;
    const gatewayMs = WITH_GATEWAY ? t.gatewayCpu / t.gateway.calls : null;
    if (t.pipe.failed.length || t.gateway.failed.length)
      throw new Error(
        `${call.name}: answers not 200: ${t.pipe.failed.join(', ') || 'none'} through the pipe, ${t.gateway.failed.join(', ') || 'none'} through the gateway`,
      );
    results[call.name] = {
      apiMs: ms3(apiMs),
      dbMs: dbMs === null ? null : ms3(dbMs),
      pipeMs: ms3(pipeMs),
      gatewayMs: gatewayMs === null ? null : ms3(gatewayMs),
      apiPerPipe: round(apiMs / pipeMs),
      dbPerPipe: dbMs === null ? null : round(dbMs / pipeMs),
      gatewayPerPipe: gatewayMs === null ? null : round(gatewayMs / pipeMs),
      callsPerSecond: Math.round(t.pipe.calls / t.pipeTime),
      // A call's time through the pipe with CONNECTIONS at once (the api's answer plus the pipe's relay).
      latencyMs: latency(t.times),
    };
    log(`${engine} ${call.name}: ${JSON.stringify(results[call.name])}`);
  }
  upstream?.close();
  stopping = true;
  for (const c of [gateway, pipe]) {
    c.kill('SIGTERM');
    await new Promise((r) => c.once('exit', r));
  }
  await e.close();
  stopping = false;
  return results;
}

const figures: Record<string, unknown> = {};
const loadBefore = loadavg()[0];
for (const engine of ENGINES) figures[engine] = await measureEngine(engine);
console.log(
  JSON.stringify({
    bench: 'call-cost',
    seconds: SECONDS,
    connections: CONNECTIONS,
    ...(KEPT_DROPS_PER_SECOND > 0 && { keptDropsPerSecond: KEPT_DROPS_PER_SECOND }),
    loadAverage: [round(loadBefore), round(loadavg()[0])],
    ...figures,
  }),
);
process.exit(0);
