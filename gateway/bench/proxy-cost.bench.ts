// The gateway's proxy alone (issue 34), run by `npm run bench proxy-cost`: a fixed ~300-byte
// answer (proxy-cost-answer.mjs) stands in for the api, so that only the gateway and the plain
// node:http pipe (api/bench/call-cost-pipe.mjs, the yardstick) differ. Drives CONNECTIONS
// kept-alive connections with `GET /api/x` through the pipe and through the gateway in
// alternating one-second turns, BENCH_SECONDS each in all, and prints the CPU per call of each
// (user + system, from /proc) and the gateway's as a ratio to the pipe's of the same run.
// BENCH_GATEWAY_MAINS=a.ts,b.ts measures several gateway entry points in the same turns (e.g.
// another checkout's beside this one's, for before/after in one run).
// Every answer must be 200. Prints exactly one JSON line.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { benchLog, round } from '../../api/bench/kit';
import { freePort } from '../../api/test/kit/api-process';

const root = resolve(import.meta.dirname, '../..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DEFAULT_MAIN = join(root, 'gateway/src/main.ts');
/** Gateway entry points measured side by side (comma-separated; another checkout's for before/after). */
const GATEWAY_MAINS = (process.env.BENCH_GATEWAY_MAINS ?? DEFAULT_MAIN).split(',');
const GATEWAY_NODE_ARGS = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean);
const TICKS_PER_MS = 100 / 1000;
const log = benchLog('proxy-cost');
const ms3 = (n: number): number => Math.round(n * 1000) / 1000;

const children: ChildProcess[] = [];
let stopping = false;
process.on('exit', () => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL')));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_MS;
  } catch {
    return 0;
  }
}

function start(name: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: 'ignore' });
  child.once('exit', (code, signal) => {
    if (!stopping) {
      log(`${name} exited (${code ?? signal}) during the run`);
      process.exit(1);
    }
  });
  children.push(child);
  return child;
}

async function until(url: string, what: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    const up = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not start`);
}

/** What a console tab sends with a call (a browser's usual headers). */
const BROWSER_HEADERS = {
  accept: 'application/json, text/plain, */*',
  'accept-encoding': 'gzip, deflate, br',
  'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8',
  authorization: `Bearer ${'t'.repeat(43)}`,
  lang: 'zh-CN',
  referer: 'http://127.0.0.1/complaints',
  'sec-fetch-dest': 'empty',
  'sec-fetch-mode': 'cors',
  'sec-fetch-site': 'same-origin',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
};

function call(agent: http.Agent, port: number): Promise<number> {
  return new Promise((resolveStatus, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: '/api/fixed/answer', agent, headers: BROWSER_HEADERS },
      (res) => {
        res.resume();
        res.once('end', () => resolveStatus(res.statusCode ?? 0));
      },
    );
    req.once('error', reject);
    req.end();
  });
}

async function drive(port: number, ms: number): Promise<{ calls: number; failed: number }> {
  const deadline = Date.now() + ms;
  let calls = 0;
  let failed = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < deadline) {
        if ((await call(agent, port)) !== 200) failed++;
        calls++;
      }
    }),
  );
  agent.destroy();
  return { calls, failed };
}

async function main(): Promise<void> {
  const load = [loadavg()[0]];
  const answerPort = await freePort();
  start('answer', [join(import.meta.dirname, 'proxy-cost-answer.mjs')], { ANSWER_PORT: String(answerPort) });
  const pipePort = await freePort();
  const pipe = start('pipe', [join(root, 'api/bench/call-cost-pipe.mjs')], {
    PIPE_TARGET: `http://127.0.0.1:${answerPort}`,
    PIPE_PORT: String(pipePort),
    PIPE_STRIP_PREFIX: '/api',
  });
  const paths: { name: string; port: number; pid: number; cpu: number; calls: number }[] = [
    { name: 'pipe', port: pipePort, pid: pipe.pid!, cpu: 0, calls: 0 },
  ];
  await until(`http://127.0.0.1:${answerPort}/`, 'the fixed answer');
  await until(`http://127.0.0.1:${pipePort}/`, 'the pipe');
  for (const [i, main] of GATEWAY_MAINS.entries()) {
    const port = await freePort();
    const metricsPort = await freePort();
    const gateway = start(`gateway ${main}`, [...GATEWAY_NODE_ARGS, '--import', 'tsx', main], {
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      API_URL: `http://127.0.0.1:${answerPort}`,
      REDIS_URL: '',
      LOG_LEVEL: 'info',
    });
    await until(`http://127.0.0.1:${metricsPort}/metrics`, `the gateway ${main}`);
    paths.push({ name: `gateway${i}`, port, pid: gateway.pid!, cpu: 0, calls: 0 });
  }
  log('warming up');
  for (const path of paths) await drive(path.port, 1500);
  let failed = 0;
  // One-second turns, each path in its turn: a change in the machine's load falls on all alike.
  for (let turn = 0; turn < SECONDS; turn++)
    for (const path of turn % 2 ? [...paths].reverse() : paths) {
      const before = cpuMs(path.pid);
      const r = await drive(path.port, 1000);
      path.cpu += cpuMs(path.pid) - before;
      path.calls += r.calls;
      failed += r.failed;
    }
  load.push(loadavg()[0]);
  stopping = true;
  if (failed) throw new Error(`${failed} calls not answered 200`);
  const pipePerCall = paths[0].cpu / paths[0].calls;
  console.log(
    JSON.stringify({
      bench: 'proxy-cost',
      seconds: SECONDS,
      connections: CONNECTIONS,
      pipeCpuMsPerCall: ms3(pipePerCall),
      pipeCallsPerSecond: Math.round(paths[0].calls / SECONDS),
      gateways: paths.slice(1).map((p, i) => ({
        main: GATEWAY_MAINS[i] === DEFAULT_MAIN ? 'this checkout' : GATEWAY_MAINS[i],
        cpuMsPerCall: ms3(p.cpu / p.calls),
        overPipe: round(p.cpu / p.calls / pipePerCall),
        callsPerSecond: Math.round(p.calls / SECONDS),
      })),
      loadAverage: load.map(round),
    }),
  );
  process.exit(0);
}

main().catch((err) => {
  log((err as Error).stack ?? String(err));
  process.exit(1);
});
