// The gateway's CPU per returning tab (issue 34, README "Part 21"), run by `npm run bench reconnect-cost`
// or `npx tsx gateway/bench/reconnect-cost.bench.ts`. One built gateway process (gateway/dist/main.js, as
// `npm start` runs it), the api in its own process (PostgreSQL with BENCH_DATABASE_URL, else PGlite),
// Redis for the sessions (BENCH_REDIS_URL, default the local one; `off` for none), BENCH_PERSONS × 5
// tabs connected; then, BENCH_ROUNDS times, the gateway is killed (SIGKILL) and started again and every
// tab comes back (handshake, identity lookup, upstream open, session through Redis, first snapshot).
// The figure: the restarted gateway's CPU seconds (utime + stime from /proc) from the moment it
// listens until every tab is back, divided by the tabs back. Prints exactly one JSON line.
//
// BENCH_GATEWAY_MAIN runs another gateway bundle (a "before" checkout's gateway/dist/main.js) against the
// same api and tabs; BENCH_GATEWAY_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles it
// (the profile is written when the gateway is stopped with SIGTERM after the last round).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { gatewayBundle } from '../../scripts/build-gateway.mjs';
import { ask, forkHelper } from './helper-ipc';

const PERSONS = Number(process.env.BENCH_PERSONS ?? 200);
const TABS_PER_PERSON = 5;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const TAB_WORKERS = Number(process.env.BENCH_TAB_WORKERS ?? 2);
const BACK_TIMEOUT_S = Number(process.env.BENCH_BACK_TIMEOUT_S ?? 120);
const PORT_BASE = process.env.BENCH_PORT_BASE ? Number(process.env.BENCH_PORT_BASE) : null;
const REDIS_URL =
  process.env.BENCH_REDIS_URL === 'off' ? null : process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';
const REDIS_PREFIX = process.env.BENCH_REDIS_PREFIX || `reconnect-bench:${process.pid}:${Date.now().toString(36)}:`;
const TAB_OCTETS =
  /^(\d+)-(\d+)$/
    .exec(process.env.BENCH_TAB_OCTETS ?? '')
    ?.slice(1, 3)
    .map(Number) ?? null;
const root = resolve(import.meta.dirname, '../..');
const log = (msg: string) => process.stderr.write(`[reconnect-cost bench] ${msg}\n`);
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const children: ChildProcess[] = [];
process.on('exit', () => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL')));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

/** A person's tabs come from an address of their own (as from one browser), BENCH_TAB_OCTETS=3-9 → 127.0.3.1 …. */
function tabAddress(person: number): string {
  if (TAB_OCTETS) {
    const [from, to] = TAB_OCTETS;
    const slot = person % ((to - from + 1) * 254);
    return `127.0.${from + Math.floor(slot / 254)}.${(slot % 254) + 1}`;
  }
  return `127.1.${(person >> 8) & 255}.${person & 255}`;
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat (11 and 12 after the command), in clock ticks (100 a second).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface GatewayProcess {
  child: ChildProcess;
  /** CPU seconds when it answered /metrics the first time (its start). */
  cpuAtListen: number;
  listenedAt: number;
}

async function startGateway(entry: string, apiUrl: string, port: number, metricsPort: number): Promise<GatewayProcess> {
  const nodeArgs = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, ['--max-semi-space-size=32', ...nodeArgs, entry], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      API_URL: apiUrl,
      REDIS_URL: REDIS_URL ?? '',
      REDIS_PREFIX,
      LOG_LEVEL: process.env.BENCH_GATEWAY_LOG_LEVEL ?? 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { child, cpuAtListen: cpuSeconds(child.pid!), listenedAt: Date.now() };
    if (i > 600) throw new Error('gateway did not start');
    await sleep(50);
  }
}

interface Back {
  back: number;
  total: number;
  at: number;
  countersChanged: number;
  refusals: Record<string, number>;
  transportErrorsWhileUp: number;
}

async function main(): Promise<void> {
  const port = PORT_BASE ?? (await freePort());
  const metricsPort = PORT_BASE !== null ? PORT_BASE + 1 : await freePort();
  const apiPort = PORT_BASE !== null ? PORT_BASE + 2 : await freePort();
  const entry = process.env.BENCH_GATEWAY_MAIN || (await gatewayBundle());
  if (!entry) throw new Error('no gateway bundle: run `npm run build`');
  log(
    `gateway ${entry}, api on ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, redis ${REDIS_URL ?? 'off'}`,
  );

  const api = forkHelper(children, 'api-worker.ts', { BENCH_API_PORT: String(apiPort) });
  const ready = await new Promise<{ url: string; engine: string }>((resolveReady, reject) => {
    api.once('exit', (code) => reject(new Error(`the bench api exited with ${code}`)));
    api.on('message', (m: { type: string; url: string; engine: string }) => m.type === 'ready' && resolveReady(m));
  });
  const persons = await ask<{ staff?: { token: string }[]; error?: string }>(
    api,
    { type: 'persons', count: PERSONS },
    'persons',
  );
  if (!persons.staff) throw new Error(`bench accounts: ${persons.error}`);
  const tokens = persons.staff.map((s) => s.token);

  let gateway = await startGateway(entry, ready.url, port, metricsPort);
  const url = `http://127.0.0.1:${port}`;
  const workers = Array.from({ length: TAB_WORKERS }, () => forkHelper(children, 'tabs-worker.ts'));
  const opened = await Promise.all(
    workers.map((w, i) =>
      ask<{ count: number; failed: number; firstError: string }>(
        w,
        {
          type: 'open',
          url,
          tokens: tokens.filter((_, p) => p % TAB_WORKERS === i),
          addresses: tokens.map((_, p) => tabAddress(p)).filter((_, p) => p % TAB_WORKERS === i),
          tabsPerPerson: TABS_PER_PERSON,
        },
        'opened',
      ),
    ),
  );
  const tabs = opened.reduce((n, o) => n + o.count, 0);
  log(
    `${tabs} tabs open (${opened.reduce((n, o) => n + o.failed, 0)} failed ${opened.map((o) => o.firstError).join(' ')})`,
  );
  await sleep(2000);

  const rounds: Record<string, unknown>[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const loadBefore = loadavg()[0];
    await Promise.all(workers.map((w) => ask(w, { type: 'arm' }, 'armed')));
    const killedAt = Date.now();
    gateway.child.kill('SIGKILL');
    await new Promise((r2) => gateway.child.once('exit', r2));
    gateway = await startGateway(entry, ready.url, port, metricsPort);
    await Promise.all(workers.map((w) => ask(w, { type: 'restarted' }, 'noted')));
    const backs = await Promise.all(
      workers.map((w) => ask<Back>(w, { type: 'back', timeoutMs: BACK_TIMEOUT_S * 1000 }, 'back')),
    );
    const cpu = cpuSeconds(gateway.child.pid!) - gateway.cpuAtListen;
    const back = backs.reduce((n, b) => n + b.back, 0);
    const lastAt = Math.max(...backs.map((b) => b.at));
    const refusals: Record<string, number> = {};
    for (const b of backs)
      for (const [code, n] of Object.entries(b.refusals)) refusals[code] = (refusals[code] ?? 0) + n;
    const figure = {
      tabsBack: back,
      of: tabs,
      countersChanged: backs.reduce((n, b) => n + b.countersChanged, 0),
      gatewayCpuSeconds: round(cpu),
      msCpuPerTab: round((cpu * 1000) / Math.max(1, back), 3),
      secondsFromListen: round((lastAt - gateway.listenedAt) / 1000, 1),
      gatewayStartSeconds: round((gateway.listenedAt - killedAt) / 1000, 1),
      refusals,
      transportErrorsWhileUp: backs.reduce((n, b) => n + b.transportErrorsWhileUp, 0),
      load: [round(loadBefore), round(loadavg()[0])],
    };
    log(`round ${r + 1}: ${JSON.stringify(figure)}`);
    rounds.push(figure);
    await sleep(3000);
  }

  // SIGTERM so that --cpu-prof writes its profile.
  gateway.child.kill('SIGTERM');
  await new Promise((r) => gateway.child.once('exit', r));
  await Promise.all(workers.map((w) => ask(w, { type: 'close' }, 'closed')));
  api.send({ type: 'close' });
  await new Promise((r) => api.once('exit', r));
  if (REDIS_URL) {
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${REDIS_PREFIX}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
    redis.disconnect();
  }
  const perTab = rounds.map((r) => r.msCpuPerTab as number).sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      bench: 'reconnect-cost',
      gateway: process.env.BENCH_GATEWAY_MAIN ? entry : 'this checkout',
      api: ready.engine,
      redis: REDIS_URL !== null,
      persons: PERSONS,
      tabs,
      msCpuPerTabMedian: perTab[Math.floor(perTab.length / 2)],
      rounds,
    }),
  );
  process.exit(0);
}

main().catch((err: Error) => {
  log(err.stack ?? err.message);
  process.exit(1);
});
