// SOS from the resident API to a console tab through the gateway (issue 21 budget: p99 < 500 ms
// with 1,000 tabs connected and 2,000 other events/s), run by `npm run bench sos`.
// 200 staff persons × 5 tabs (alarms and announcements) on a real gateway process in front of a
// real api; while the api pushes 2,000 announcement events/s to them, a resident calls SOS through
// the gateway (`POST /api/app/sos/help`) BENCH_SOS_CALLS times; each call's latency to each tab is
// from just before the call to the tab receiving its `alarms` event. One JSON line on stdout.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { runBench } from '../../api/bench/kit';
import { createBenchPersons, type BenchApi } from './bench-accounts';
import { ask } from './helper-ipc';

const PERSONS = Number(process.env.BENCH_PERSONS ?? 200);
const TABS_PER_PERSON = 5;
const EVENTS_PER_SECOND = 2000;
const SOS_CALLS = Number(process.env.BENCH_SOS_CALLS ?? 40);
const SOS_EVERY_MS = 250;
const TAB_WORKERS = 2;
const root = resolve(import.meta.dirname, '../..');
const log = (msg: string) => process.stderr.write(`[sos bench] ${msg}\n`);
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
    if (
      await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, child };
    if (i > 300) throw new Error('gateway did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function token(url: string, username: string, password: string): Promise<string> {
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

async function main(): Promise<void> {
  const { startApi } = (await import(pathToFileURL(join(root, 'api/src/server.ts')).href)) as {
    startApi(o: object): Promise<BenchApi>;
  };
  const dataDir = mkdtempSync(join(tmpdir(), 'sos-bench-'));
  const api = await startApi({ port: 0, seed: true, dataDir, logLevel: 'silent', sosReannounceMs: 3_600_000 });
  log(`creating ${PERSONS} staff accounts`);
  const staff = await createBenchPersons(api, PERSONS);
  const tokens = staff.map((s) => s.token);
  const gateway = await startGatewayProcess(api.url);
  const workers = Array.from({ length: TAB_WORKERS }, () => {
    const child = fork(join(import.meta.dirname, 'sos-tabs-worker.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    children.push(child);
    return child;
  });
  log(`opening ${PERSONS * TABS_PER_PERSON} tabs`);
  const opened = await Promise.all(
    workers.map((w, i) =>
      ask<{ count: number }>(
        w,
        {
          type: 'open',
          url: gateway.url,
          tokens: tokens.filter((_, j) => j % TAB_WORKERS === i),
          tabsPerPerson: TABS_PER_PERSON,
        },
        'opened',
      ),
    ),
  );
  const tabs = opened.reduce((n, o) => n + o.count, 0);
  for (let i = 0; i < 600 && api.realtime.connectionCount() < PERSONS; i++)
    await new Promise((r) => setTimeout(r, 100));
  const personIds = staff.map((s) => s.personId);
  const resident = await token(`${gateway.url}/api`, 'resident1', 'resident123');
  const houses = (await (
    await fetch(`${gateway.url}/api/app/house/list`, { headers: { authorization: `Bearer ${resident}` } })
  ).json()) as { data: { houseType: number; houseId: number }[] };
  const house = houses.data[0];

  // Background: 2,000 announcement events/s spread over the persons, for as long as the calls last.
  let running = true;
  let sent = 0;
  const started = Date.now();
  const background = (async () => {
    while (running) {
      const due = Math.floor(((Date.now() - started) / 1000) * EVENTS_PER_SECOND);
      for (; sent < due; sent++)
        void api.realtime.publish([personIds[sent % personIds.length]], { channelType: 9, dataId: sent });
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  await new Promise((r) => setTimeout(r, 2000));
  await Promise.all(workers.map((w) => ask(w, { type: 'collect' }, 'arrivals')));

  log(`${SOS_CALLS} SOS calls, one every ${SOS_EVERY_MS} ms, under ${EVENTS_PER_SECOND} events/s`);
  const calledAt = new Map<number, number>();
  for (let i = 0; i < SOS_CALLS; i++) {
    const at = now();
    const res = await fetch(`${gateway.url}/api/app/sos/help`, {
      method: 'POST',
      headers: { authorization: `Bearer ${resident}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...house, position: `Bench ${i}` }),
    });
    const id = ((await res.json()) as { data: { sosHelpId: number } }).data.sosHelpId;
    calledAt.set(id, at);
    await new Promise((r) => setTimeout(r, Math.max(0, SOS_EVERY_MS - (now() - at))));
  }
  await new Promise((r) => setTimeout(r, 3000));
  running = false;
  await background;
  const rate = sent / ((Date.now() - started) / 1000);
  const collected = await Promise.all(
    workers.map((w) => ask<{ values: number[]; background: number }>(w, { type: 'collect' }, 'arrivals')),
  );
  const latencies: number[] = [];
  for (const { values } of collected)
    for (let i = 0; i < values.length; i += 2) {
      const at = calledAt.get(values[i]);
      if (at !== undefined) latencies.push(values[i + 1] - at);
    }
  latencies.sort((a, b) => a - b);
  const p99 = percentile(latencies, 99);
  const expected = SOS_CALLS * tabs;
  process.stdout.write(
    `${JSON.stringify({
      bench: 'sos',
      tabs,
      persons: PERSONS,
      backgroundEventsPerSecond: Math.round(rate),
      sosCalls: SOS_CALLS,
      deliveriesExpected: expected,
      deliveries: latencies.length,
      latencyP50Ms: round(percentile(latencies, 50)),
      latencyP99Ms: round(p99),
      latencyMaxMs: round(latencies[latencies.length - 1]),
      targets: { latencyP99Ms: 500 },
      pass: latencies.length === expected && p99 < 500,
    })}\n`,
  );
  await Promise.all(workers.map((w) => ask(w, { type: 'close' }, 'closed')));
  if (gateway.child.exitCode === null) {
    const exited = new Promise((r) => gateway.child.once('exit', r));
    gateway.child.kill('SIGTERM');
    await exited;
  }
  // The figures are out: the api gets a few seconds to close, then ends with the process.
  await Promise.race([api.close(), new Promise((r) => setTimeout(r, 5000))]);
  rmSync(dataDir, { recursive: true, force: true });
}

runBench('sos', main);
