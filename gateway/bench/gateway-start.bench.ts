// How long a gateway takes from its process start to listening (issue 34, README "Part 18"), run
// by `npm run bench gateway-start`: the sources through tsx (`node --import tsx gateway/src/main.ts`,
// how the gateway started before) and the bundle built ahead (`node gateway/dist/main.js`, how
// `npm start` and the image start it now), in turns, BENCH_STARTS times each, so both see the same
// load. A start is timed from spawn to the gateway's "gateway listening" log line; it needs no api
// (the gateway listens before it reaches one) and listens on a free port (PORT=0), metrics off.
// Prints exactly one JSON line: the median and the slowest start of each, and the load average.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { benchLog, round } from '../../api/bench/kit';
import { buildGateway, GATEWAY_BUNDLE } from '../../scripts/build-gateway.mjs';

const root = resolve(import.meta.dirname, '../..');
const STARTS = Number(process.env.BENCH_STARTS ?? 5);
const log = benchLog('gateway-start');

const ways = {
  tsx: ['--import', 'tsx', join(root, 'gateway/src/main.ts')],
  built: [GATEWAY_BUNDLE],
};

/** Milliseconds from spawning `node … args` to its "gateway listening" line; the process is then stopped. */
function timeStart(args: string[]): Promise<number> {
  return new Promise((resolveMs, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--max-semi-space-size=32', ...args], {
      cwd: root,
      env: {
        ...process.env,
        PORT: '0',
        METRICS_PORT: 'off',
        API_URL: 'http://127.0.0.1:9',
        REDIS_URL: '',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let ms: number | null = null;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (ms !== null || !line.includes('"gateway listening"')) return;
      ms = performance.now() - started;
      child.kill('SIGKILL');
    });
    child.once('exit', () =>
      ms === null ? reject(new Error(`${args.join(' ')} exited before listening`)) : resolveMs(ms),
    );
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await buildGateway();
const loadBefore = loadavg().map(round);
const samples: Record<keyof typeof ways, number[]> = { tsx: [], built: [] };
for (let i = 0; i < STARTS; i++)
  for (const way of Object.keys(ways) as (keyof typeof ways)[]) {
    const ms = await timeStart(ways[way]);
    samples[way].push(ms);
    log(`${way} #${i + 1}: ${Math.round(ms)} ms`);
  }
console.log(
  JSON.stringify({
    bench: 'gateway-start',
    starts: STARTS,
    tsxMedianMs: Math.round(median(samples.tsx)),
    tsxMaxMs: Math.round(Math.max(...samples.tsx)),
    builtMedianMs: Math.round(median(samples.built)),
    builtMaxMs: Math.round(Math.max(...samples.built)),
    load: { before: loadBefore, after: loadavg().map(round) },
  }),
);
