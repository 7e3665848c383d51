// Wall screen soak (issue 22), run by `npm run bench wall-soak`: does a wall screen run for days
// without growing? Starts the product as `npm start` does (its own ports, a fresh DATA_DIR), opens
// /wall in Debian's Chromium signed in as the demo wall account, and drives the resident simulator
// (`npm run simulate`: complaints, work orders, SOS calls, replies) at a compressed rate, while
// the estate's staff acknowledge and close calls and release warnings, and the screen's network
// drops a few times. Every sample it collects the page's garbage (CDP HeapProfiler.collectGarbage)
// and reads its JS heap, DOM nodes and event listeners (CDP Performance.getMetrics), and reads the
// gateway process's resident memory (/proc/<pid>/status). Prints exactly one JSON line: the
// series and the growth from the first sample after warm-up to the last.
//   WALL_SOAK_SECONDS (120): how long the simulator runs.
//   WALL_SOAK_RATE (5): simulated resident actions per second.
//   WALL_SOAK_REAL_PER_HOUR (60): how many such actions a real estate sees per hour; the
//     simulated span is events / this (default: 600 events ≈ 10 hours of a busy estate).
//   WALL_SOAK_SAMPLE_SECONDS (10): the sampling period.
//   WALL_SOAK_OUTAGES (2): network drops of the wall screen (3 s each) spread over the run.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startProduct } from '../../tests/support/product';

const root = resolve(import.meta.dirname, '../..');
const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const env = (name: string, fallback: number) => {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number`);
  return n;
};
const SECONDS = env('WALL_SOAK_SECONDS', 120);
const RATE = env('WALL_SOAK_RATE', 5);
const REAL_PER_HOUR = env('WALL_SOAK_REAL_PER_HOUR', 60);
const SAMPLE_SECONDS = env('WALL_SOAK_SAMPLE_SECONDS', 10);
const OUTAGES = Math.floor(Number(process.env.WALL_SOAK_OUTAGES ?? 2));

// The product as `npm start` runs it (its own ports, a fresh DATA_DIR).
const product = await startProduct({ REDIS_URL: '', METRICS_PORT: '0', API_METRICS_PORT: '0', START_QUIET: '1' });
const base = product.url;

/** The gateway's process: the child of start.mjs that runs gateway/src/main.ts. */
function gatewayPid(): number {
  const ps = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(product.pid)], { encoding: 'utf8' });
  const line = ps.stdout.split('\n').find((l) => /gateway/.test(l));
  if (!line) throw new Error(`gateway process not found under ${product.pid}:\n${ps.stdout}`);
  return Number(line.trim().split(/\s+/)[0]);
}
const rssMB = (pid: number): number => {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  return Math.round(kb / 102.4) / 10;
};

async function token(username: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from('console:console-secret').toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`sign-in of ${username} failed: ${JSON.stringify(body)}`);
  return body.access_token;
}
async function api<T>(bearer: string, path: string, body?: object): Promise<T> {
  const res = await fetch(`${base}/api${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  return ((await res.json()) as { data: T }).data;
}

const browser = await chromium.launch({
  executablePath: chromePath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-quic'],
});

interface Sample {
  t: number;
  events: number;
  heapMB: number;
  domNodes: number;
  listeners: number;
  rows: number;
  gatewayRssMB: number;
}

const samples: Sample[] = [];
let simulated = 0;
let sim: ReturnType<typeof spawn> | undefined;
try {
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  await context.addCookies([{ name: 'Admin-Token', value: await token('wall', 'wall123'), url: base }]);
  const page = await context.newPage();
  await page.goto(`${base}/wall`);
  await page.locator('[data-testid=wall-counts][data-current=true]').waitFor({ timeout: 60_000 });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('Network.enable');
  const gateway = gatewayPid();
  const admin = await token('admin', 'admin123');
  const started = Date.now();

  const sample = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const m = (name: string) => metrics.find((x) => x.name === name)?.value ?? NaN;
    samples.push({
      t: Math.round((Date.now() - started) / 1000),
      events: simulated,
      heapMB: Math.round(m('JSHeapUsedSize') / 1024 / 102.4) / 10,
      domNodes: m('Nodes'),
      listeners: m('JSEventListeners'),
      rows: await page.getByTestId('wall-alarm').count(),
      gatewayRssMB: rssMB(gateway),
    });
  };
  await sample();

  // The residents: `npm run simulate` against the gateway, counting the actions it reports.
  sim = spawn(
    join(root, 'node_modules/.bin/tsx'),
    [
      join(root, 'api/src/simulator/cli.ts'),
      '--url',
      `${base}/api`,
      '--rate',
      String(RATE),
      '--duration',
      String(SECONDS),
      '--residents',
      '5',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  sim.stdout!.on('data', (c: Buffer) => {
    simulated += (c.toString().match(/^\d{4}-\d\d-\d\dT\S+ resident\d+ /gm) ?? []).length;
  });
  const simDone = new Promise((r) => sim!.once('exit', r));

  // The staff: acknowledge and close all but the newest 20 open calls, release a warning now and then.
  const outageEvery = OUTAGES > 0 ? (SECONDS * 1000) / (OUTAGES + 1) : Infinity;
  let nextOutage = started + outageEvery;
  let tick = 0;
  while (sim.exitCode === null) {
    await new Promise((r) => setTimeout(r, SAMPLE_SECONDS * 1000));
    tick++;
    const open = (await api<{ sos: { id: number; state: string }[] }>(admin, '/wall/feed')).sos;
    for (const call of open.slice(0, Math.max(0, open.length - 20))) {
      if (call.state === 'open') await api(admin, `/disaster/sos/${call.id}/acknowledge`, {});
      await api(admin, `/disaster/sos/${call.id}/close`, { note: 'Soak: handled' });
    }
    if (tick % 3 === 0) await api(admin, '/disaster/warn/save', { type: 4, content: `Soak warning ${tick}` });
    if (Date.now() >= nextOutage) {
      nextOutage += outageEvery;
      await cdp.send('Network.emulateNetworkConditions', {
        offline: true,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
      await new Promise((r) => setTimeout(r, 3000));
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
      await page.locator('[data-testid=wall-counts][data-current=true]').waitFor({ timeout: 60_000 });
    }
    await sample();
  }
  await simDone;
  // Settled: the last reading in, then the final sample.
  await page.locator('[data-testid=wall-counts][data-current=true]').waitFor({ timeout: 60_000 });
  await new Promise((r) => setTimeout(r, 2000));
  await sample();

  // Growth from the first sample after warm-up (a quarter of the run) to the last.
  const warm = samples.find((s) => s.t >= SECONDS / 4) ?? samples[0];
  const last = samples[samples.length - 1];
  const growth = (k: 'heapMB' | 'domNodes' | 'listeners' | 'gatewayRssMB') => Math.round((last[k] - warm[k]) * 10) / 10;
  const hours = Math.round((simulated / REAL_PER_HOUR) * 10) / 10;
  console.log(
    JSON.stringify({
      bench: 'wall-soak',
      seconds: SECONDS,
      rate: RATE,
      events: simulated,
      simulatedHours: hours,
      outages: OUTAGES,
      load: (await import('node:os')).loadavg().map((x) => Math.round(x * 100) / 100),
      growthAfterWarmUp: {
        from: warm.t,
        heapMB: growth('heapMB'),
        domNodes: growth('domNodes'),
        listeners: growth('listeners'),
        gatewayRssMB: growth('gatewayRssMB'),
      },
      maxRows: Math.max(...samples.map((s) => s.rows)),
      series: samples,
    }),
  );
} finally {
  if (sim && sim.exitCode === null) sim.kill('SIGINT');
  await browser.close();
  await product.stop();
}
