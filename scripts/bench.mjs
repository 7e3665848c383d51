#!/usr/bin/env node
// `npm run bench [filter]`: runs every benchmark (`<package>/bench/*.bench.{ts,mjs}`), one
// after another so they don't disturb each other. Each prints exactly one JSON line with its
// figures; this runner passes those lines through and ends with a summary naming every benchmark
// that did not report (a non-zero exit, no JSON line, a line that is not JSON, or still running
// after BENCH_TIMEOUT_MINUTES, 30 by default), and then exits 1.
// BENCH_ROOT (the repository by default) is where the `<package>/bench` folders are looked for.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const benchRoot = process.env.BENCH_ROOT ?? root;
const filter = process.argv[2] ?? '';
const timeoutMinutes = Number(process.env.BENCH_TIMEOUT_MINUTES ?? 30);
const tsx = join(root, 'node_modules', '.bin', 'tsx');
/** Benchmarks that did not report, each with why. */
const failures = [];
let ran = 0;

/** Why a finished benchmark did not report, or null when it printed its line and exited 0. */
function failure(r, lines) {
  if (r.error?.code === 'ETIMEDOUT') return `still running after ${timeoutMinutes} min (stopped)`;
  if (r.error) return `could not run: ${r.error.message}`;
  if (r.signal) return `killed by ${r.signal}`;
  // Node's code for a top-level await that can never settle: nothing was left to wait for.
  if (r.status === 13) return 'exit 13: its main never finished (a promise that never settles)';
  if (r.status !== 0) return `exit ${r.status}`;
  if (lines.length === 0) return 'exit 0 but no JSON line';
  const bad = lines.find((line) => !isJson(line));
  return bad ? `printed a line that is not JSON: ${bad.slice(0, 80)}` : null;
}

function isJson(line) {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

for (const pkg of ['api', 'gateway', 'client', 'tests']) {
  const dir = join(benchRoot, pkg, 'bench');
  if (!existsSync(dir)) continue;
  for (const file of readdirSync(dir)
    .filter((f) => /\.bench\.(ts|mjs)$/.test(f))
    .sort()) {
    const name = `${pkg}/bench/${file}`;
    if (filter && !name.includes(filter)) continue;
    ran++;
    console.error(`running ${name} …`);
    const r = spawnSync(tsx, [join(dir, file)], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 << 20,
      timeout: timeoutMinutes * 60_000,
      killSignal: 'SIGTERM',
    });
    const lines = (r.stdout ?? '').split('\n').filter((l) => l.trim().startsWith('{'));
    const why = failure(r, lines);
    if (why) {
      failures.push({ name, why });
      console.error(`${name} did not report: ${why}`);
    }
    for (const line of lines.filter(isJson)) console.log(line);
  }
}

if (failures.length) {
  console.error(`\n${failures.length} of ${ran} benchmarks did not report:`);
  for (const { name, why } of failures) console.error(`  ${name}: ${why}`);
} else console.error(`\nall ${ran} benchmarks reported`);
process.exit(failures.length ? 1 : 0);
