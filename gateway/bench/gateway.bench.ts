// Gateway benchmark (DESIGN §6), run by `npm run bench gateway` or `npx tsx gateway/bench/gateway.bench.ts`.
// 200 persons × 5 tabs through a real gateway process in front of a real api: upstream count,
// push-to-tab latency at 2,000 events/s, gateway RSS per socket, proxied vs direct REST rate.
// Prints exactly one JSON line on stdout; progress goes to stderr.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { Serializable } from 'node:child_process';
import { createBenchAccounts, type BenchApi } from './bench-accounts';

const PERSONS = Number(process.env.BENCH_PERSONS ?? 200);
const TABS_PER_PERSON = 5;
const EVENTS_PER_SECOND = 2000;
const EVENT_SECONDS = Number(process.env.BENCH_EVENT_SECONDS ?? 10);
const REST_SECONDS = Number(process.env.BENCH_REST_SECONDS ?? 12);
const REST_ROUNDS = 6;
const REST_CONCURRENCY = 32;
const root = resolve(import.meta.dirname, '../..');
const log = (msg: string) => process.stderr.write(`[gateway bench] ${msg}\n`);
const now = () => performance.timeOrigin + performance.now();

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

/** The gateway as production runs it: its own process, `node --import tsx gateway/src/main.ts`, logging at info. */
async function startGatewayProcess(apiUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'gateway/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      API_URL: apiUrl,
      REDIS_URL: '',
      LOG_LEVEL: process.env.BENCH_GATEWAY_LOG_LEVEL ?? 'info',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}`);
    if (
      await fetch(`${url}/metrics`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, child };
    if (i > 300) throw new Error('gateway did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : NaN;
}

/** A helper script in its own process (so its work does not share the api's event loop), with IPC. */
function forkHelper(file: string, env: Record<string, string> = {}): ChildProcess {
  return fork(join(import.meta.dirname, file), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
}

function ask<T>(helper: ChildProcess, message: Serializable, replyType: string): Promise<T> {
  return new Promise((resolveReply) => {
    const onMessage = (m: { type: string }) => {
      if (m.type !== replyType) return;
      helper.off('message', onMessage);
      resolveReply(m as T);
    };
    helper.on('message', onMessage);
    helper.send(message);
  });
}

async function restRate(url: string, token: string, seconds = REST_SECONDS): Promise<number> {
  const helper = forkHelper('rest-load-worker.ts', {
    BENCH_LOAD: JSON.stringify({ url, token, concurrency: REST_CONCURRENCY, durationMs: seconds * 1000 }),
  });
  const r = await new Promise<{ rps: number; errors: number }>((resolveRate, reject) => {
    helper.once('message', (m) => resolveRate(m as { rps: number; errors: number }));
    helper.once('error', reject);
  });
  if (r.errors > 0) log(`${r.errors} failed requests against ${url}`);
  return r.rps;
}

async function main(): Promise<void> {
  const modulePath = process.env.GATEWAY_BENCH_API_MODULE ?? join(root, 'api/src/server.ts');
  const { startApi } = (await import(pathToFileURL(modulePath).href)) as {
    startApi(o: { port?: number; seed?: boolean; dataDir?: string; logLevel?: string }): Promise<BenchApi>;
  };
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
  const api = await startApi({ port: 0, seed: true, dataDir, logLevel: 'silent' });
  log(`api at ${api.url}; creating ${PERSONS} accounts`);
  const tokens = await createBenchAccounts(api, PERSONS);
  const personIds = await Promise.all(
    tokens.map(async (token) => {
      const r = await fetch(`${api.url}/auth/current/user`, { headers: { authorization: `Bearer ${token}` } });
      return ((await r.json()) as { data: { accountInfo: { personId: number } } }).data.accountInfo.personId;
    }),
  );

  const gateway = await startGatewayProcess(api.url);
  const rssBefore = await metric(gateway.url, 'gateway_process_resident_memory_bytes');
  log(`gateway at ${gateway.url}; opening ${PERSONS * TABS_PER_PERSON} tabs`);
  const tabsWorker = forkHelper('tabs-worker.ts');
  const opened = await ask<{ count: number }>(
    tabsWorker,
    { type: 'open', url: gateway.url, tokens, tabsPerPerson: TABS_PER_PERSON },
    'opened',
  );
  // Every person's upstream is open (and its counters loaded) before the clock starts.
  for (let i = 0; i < 600 && api.realtime.connectionCount() < PERSONS; i++)
    await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 1000));
  const upstreamApi = api.realtime.connectionCount();
  const upstreamGateway = await metric(gateway.url, 'gateway_upstream_connections');
  const sockets = await metric(gateway.url, 'gateway_client_sockets');
  const rssWithTabs = await metric(gateway.url, 'gateway_process_resident_memory_bytes');

  log(`pushing ${EVENTS_PER_SECOND} events/s for ${EVENT_SECONDS} s`);
  await ask(tabsWorker, { type: 'collect' }, 'latencies');
  const started = Date.now();
  let sent = 0;
  while (Date.now() - started < EVENT_SECONDS * 1000) {
    const due = Math.floor(((Date.now() - started) / 1000) * EVENTS_PER_SECOND);
    for (; sent < due; sent++) {
      void api.realtime.publish([personIds[sent % personIds.length]], { channelType: 9, dataId: sent, sentAt: now() });
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  const pushSeconds = (Date.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 2000));
  const { values } = await ask<{ values: number[] }>(tabsWorker, { type: 'collect' }, 'latencies');
  const sorted = values.sort((a, b) => a - b);
  const rssAfterEvents = await metric(gateway.url, 'gateway_process_resident_memory_bytes');

  // This machine's speed drifts by tens of percent over seconds, so direct and proxied are
  // measured in alternating rounds (order swapped each round) and summed, not one after the other.
  log(`measuring REST throughput in ${REST_ROUNDS} alternating rounds (after a warm-up of both)`);
  const direct = () => restRate(`${api.url}/auth/current/user`, tokens[0], REST_SECONDS / REST_ROUNDS);
  const proxied = () => restRate(`${gateway.url}/api/auth/current/user`, tokens[0], REST_SECONDS / REST_ROUNDS);
  await restRate(`${api.url}/auth/current/user`, tokens[0], 1.5);
  await restRate(`${gateway.url}/api/auth/current/user`, tokens[0], 1.5);
  let directSum = 0;
  let proxiedSum = 0;
  for (let round = 0; round < REST_ROUNDS; round++) {
    if (round % 2 === 0) {
      directSum += await direct();
      proxiedSum += await proxied();
    } else {
      proxiedSum += await proxied();
      directSum += await direct();
    }
  }
  const directRps = directSum / REST_ROUNDS;
  const proxiedRps = proxiedSum / REST_ROUNDS;

  await ask(tabsWorker, { type: 'close' }, 'closed');
  gateway.child.kill('SIGTERM');
  await new Promise((r) => gateway.child.once('exit', r));
  await api.close();
  rmSync(dataDir, { recursive: true, force: true });

  const p50 = percentile(sorted, 50);
  const p99 = percentile(sorted, 99);
  const ratio = proxiedRps / directRps;
  const result = {
    bench: 'gateway',
    persons: PERSONS,
    tabs: opened.count,
    clientSockets: sockets,
    upstreamConnections: upstreamGateway,
    upstreamConnectionsSeenByApi: upstreamApi,
    eventsSent: sent,
    eventsPerSecond: round(sent / pushSeconds, 0),
    deliveriesExpected: sent * TABS_PER_PERSON,
    deliveries: sorted.length,
    latencyP50Ms: round(p50),
    latencyP99Ms: round(p99),
    gatewayRssMb: round(rssAfterEvents / 2 ** 20, 1),
    gatewayRssPerSocketKb: round((rssWithTabs - rssBefore) / opened.count / 1024, 1),
    directRps: round(directRps, 0),
    proxiedRps: round(proxiedRps, 0),
    proxiedRatio: round(ratio, 3),
    targets: { latencyP99Ms: 25, proxiedRatio: 0.85, upstreamConnections: PERSONS },
    pass: upstreamGateway === PERSONS && upstreamApi === PERSONS && p99 < 25 && ratio >= 0.85,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().then(
  () => process.exit(0),
  (err: Error) => {
    process.stderr.write(`[gateway bench] failed: ${err.stack ?? err.message}\n`);
    process.exit(1);
  },
);
