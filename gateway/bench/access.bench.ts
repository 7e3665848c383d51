// A role change reaching its holders' open tabs (issue 30 budget: 200 open tabs in under 1 s), run
// by `npm run bench access`. 40 holders of one role × 5 tabs each on a real gateway process in
// front of a real api; the administrator saves the role with other menus (through the gateway, as
// the console does) BENCH_ACCESS_ROUNDS times; each tab's latency is from just before the save to
// the tab receiving its `access` event (the gateway has re-read its permissions and stopped the
// topics it lost by then). Also from the save to the tab's counters reloaded for the new
// permissions (its first snapshot after the save). One JSON line on stdout. The api runs in a
// process of its own (api-worker.ts) on PGlite; BENCH_ENGINE=postgres puts it on a fresh
// PostgreSQL schema.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { postgresSchema, runBench } from '../../api/bench/kit';
import type { BenchStaff } from '../../api/bench/bench-staff';

const PERSONS = Number(process.env.BENCH_PERSONS ?? 40);
const TABS_PER_PERSON = 5;
const ROUNDS = Number(process.env.BENCH_ACCESS_ROUNDS ?? 10);
const root = resolve(import.meta.dirname, '../..');
const log = (msg: string) => process.stderr.write(`[access bench] ${msg}\n`);
const now = () => performance.timeOrigin + performance.now();
const round = (n: number) => Math.round(n * 10) / 10;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const children: ChildProcess[] = [];
process.on('exit', () => children.forEach((c) => c.exitCode === null && c.kill()));

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

/**
 * The api in a process of its own (api-worker.ts): PGlite runs in the api's event loop, and in
 * this process it would hold back the tabs' sockets while it works. `ask` sends a message and
 * waits for the answer of that type.
 */
function startApiWorker() {
  const child = fork(join(import.meta.dirname, 'api-worker.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.push(child);
  return {
    ask<T>(message: object, answer: string): Promise<T> {
      return new Promise((done, fail) => {
        const onMessage = (m: { type: string; message?: string }) => {
          if (m.type !== answer && m.type !== 'error') return;
          child.off('message', onMessage);
          child.off('exit', onExit);
          if (m.type === 'error') fail(new Error(`api worker: ${m.message}`));
          else done(m as T);
        };
        const onExit = (code: number | null) => fail(new Error(`api worker exited with ${code}`));
        child.on('message', onMessage);
        child.once('exit', onExit);
        child.send(message);
      });
    },
  };
}

async function startGatewayProcess(apiUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'gateway/src/main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), METRICS_PORT: 'off', API_URL: apiUrl, REDIS_URL: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}`);
    const up = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, child };
    if (i > 300) throw new Error('gateway did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function call<T>(url: string, token: string | null, path: string, body?: object): Promise<T> {
  const res = await fetch(`${url}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { ...(token && { authorization: `Bearer ${token}` }), 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { data: T };
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json.data;
}

async function signIn(url: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('console:console-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

interface BenchTab {
  socket: Socket;
  /** Arrival time of each access event. */
  told: number[];
  /** Arrival time of each snapshot (the counters reloaded). */
  snapshots: number[];
}

async function openTab(url: string, token: string): Promise<BenchTab> {
  const socket = io(url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
  const tab: BenchTab = { socket, told: [], snapshots: [] };
  socket.on('access', () => tab.told.push(now()));
  socket.on('snapshot', () => tab.snapshots.push(now()));
  await new Promise<void>((done, fail) => {
    socket.once('connect', () => done());
    socket.once('connect_error', fail);
  });
  await socket.timeout(10_000).emitWithAck('subscribe', ['workorders', 'announcements']);
  return tab;
}

async function main(): Promise<object> {
  const dataDir = mkdtempSync(join(tmpdir(), 'access-bench-'));
  // PGlite in DATA_DIR by default; BENCH_ENGINE=postgres: a fresh schema on PostgreSQL.
  const schema = process.env.BENCH_ENGINE === 'postgres' ? await postgresSchema() : null;
  if (process.env.BENCH_ENGINE === 'postgres' && !schema)
    throw new Error('BENCH_ENGINE=postgres needs PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL)');
  const api = startApiWorker();
  const { url: apiUrl } = await api.ask<{ url: string }>(
    { type: 'start', dataDir, databaseUrl: schema?.url },
    'started',
  );
  const gateway = await startGatewayProcess(apiUrl);
  const gw = `${gateway.url}/api`;
  const admin = await signIn(gw, 'admin', 'admin123');
  const staff = await signIn(gw, 'staff', 'staff123');

  // The holders' role: the demo staff role's menus, with and without work orders in turn.
  const { roleValue } = await call<{ roleValue: string }>(gw, staff, '/realtime/identity');
  const roles = await call<{ list: { roleId: number; roleValue: string }[] }>(gw, admin, '/base/sysrole/page', {
    page: 1,
    limit: 50,
  });
  const staffRole = roles.list.find((r) => r.roleValue === roleValue)!;
  const { menus } = await call<{ menus: { menuId: number; perms: string }[] }>(
    gw,
    admin,
    `/base/sysrole/infoandmenu/${staffRole.roleId}`,
  );
  const all = menus.map((m) => m.menuId);
  const without = menus.filter((m) => !/eventorder/.test(m.perms)).map((m) => m.menuId);
  const { roleId } = await call<{ roleId: number }>(gw, admin, '/base/sysrole/saveorupdate', {
    roleName: 'Bench holders',
    roleValue: 'BENCHHOLDER',
    menuIds: all,
  });

  log(`creating ${PERSONS} holders`);
  const { persons: holders } = await api.ask<{ persons: BenchStaff[] }>(
    { type: 'persons', count: PERSONS, roleId },
    'persons',
  );
  log(`opening ${PERSONS * TABS_PER_PERSON} tabs`);
  const tabs: BenchTab[] = [];
  for (const h of holders) for (let i = 0; i < TABS_PER_PERSON; i++) tabs.push(await openTab(gateway.url, h.token));
  for (let i = 0; i < 600; i++) {
    const { count } = await api.ask<{ count: number }>({ type: 'connections' }, 'connections');
    if (count >= PERSONS) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 1000));

  const latencies: number[] = [];
  const roundMax: number[] = [];
  const saveMs: number[] = [];
  const counterLatencies: number[] = [];
  const countersRoundMax: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const at = now();
    await call(gw, admin, '/base/sysrole/saveorupdate', {
      roleId,
      roleName: 'Bench holders',
      menuIds: r % 2 === 0 ? without : all,
    });
    saveMs.push(now() - at);
    for (let i = 0; i < 300 && tabs.some((t) => t.told.length <= r); i++) await new Promise((x) => setTimeout(x, 10));
    const these = tabs.filter((t) => t.told.length > r).map((t) => t.told[r] - at);
    latencies.push(...these);
    roundMax.push(round(Math.max(...these)));
    const reloaded = () => tabs.map((t) => t.snapshots.find((x) => x >= at)).filter((x) => x !== undefined);
    for (let i = 0; i < 300 && reloaded().length < tabs.length; i++) await new Promise((x) => setTimeout(x, 10));
    const counted = reloaded().map((x) => x - at);
    counterLatencies.push(...counted);
    countersRoundMax.push(round(Math.max(...counted)));
    await new Promise((x) => setTimeout(x, 300));
  }
  latencies.sort((a, b) => a - b);
  counterLatencies.sort((a, b) => a - b);
  const expected = ROUNDS * tabs.length;
  const max = latencies[latencies.length - 1];
  for (const t of tabs) t.socket.disconnect();
  if (gateway.child.exitCode === null) {
    const exited = new Promise((r) => gateway.child.once('exit', r));
    gateway.child.kill('SIGTERM');
    await exited;
  }
  await api.ask({ type: 'close' }, 'closed');
  rmSync(dataDir, { recursive: true, force: true });
  await schema?.drop();
  return {
    bench: 'access',
    engine: schema ? 'postgres' : 'pglite',
    tabs: tabs.length,
    holders: PERSONS,
    rounds: ROUNDS,
    deliveriesExpected: expected,
    deliveries: latencies.length,
    roleSaveP50Ms: round(
      percentile(
        [...saveMs].sort((a, b) => a - b),
        50,
      ),
    ),
    allTabsReachedMsByRound: roundMax,
    latencyP50Ms: round(percentile(latencies, 50)),
    latencyP99Ms: round(percentile(latencies, 99)),
    latencyMaxMs: round(max),
    countersReloaded: counterLatencies.length,
    countersReachedMsByRound: countersRoundMax,
    countersP50Ms: round(percentile(counterLatencies, 50)),
    countersMaxMs: round(counterLatencies[counterLatencies.length - 1]),
    targets: { latencyMaxMs: 1000 },
    pass: latencies.length === expected && max < 1000,
  };
}

runBench('access', main);
