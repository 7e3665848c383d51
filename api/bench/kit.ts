// What every api benchmark needs, in one place: a throw-away PostgreSQL schema, progress lines on
// stderr, and p50/p95 of a repeated call. A benchmark prints exactly one JSON line on stdout
// (scripts/bench.mjs passes it through); everything else goes to stderr.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import pg from 'pg';

/** Progress on stderr, prefixed with the benchmark's name: `[owners bench] seeding`. */
export function benchLog(name: string): (msg: string) => void {
  return (msg) => process.stderr.write(`[${name} bench] ${msg}\n`);
}

/** A figure rounded to hundredths (milliseconds stay readable in the JSON line). */
export const round = (n: number): number => Math.round(n * 100) / 100;

/** The p-th percentile of ascending samples (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export interface Timing {
  p50: number;
  p95: number;
}

/**
 * Runs `run` a few times to warm caches, then `runs` times measured one after another, and
 * returns p50, p95 and the slowest run in milliseconds, with the last answer (to report what the call matched).
 */
export async function timeRuns<T>(
  run: () => Promise<T>,
  options: { runs: number; warmup?: number },
): Promise<Timing & { max: number; last: T }> {
  let last!: T;
  for (let i = 0; i < (options.warmup ?? 3); i++) last = await run();
  const ms: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    const started = performance.now();
    last = await run();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  return { p50: round(percentile(ms, 50)), p95: round(percentile(ms, 95)), max: round(ms[ms.length - 1]), last };
}

/** `timeRuns` for a list call: p50, p95 and the `total` of its answer. */
export async function timeList(
  run: () => Promise<{ total: number }>,
  runs: number,
): Promise<Timing & { total: number }> {
  const { p50, p95, last } = await timeRuns(run, { runs });
  return { p50, p95, total: last.total };
}

/**
 * A fresh schema on the PostgreSQL server (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the
 * local server), with `drop()` to remove it afterwards; null when no server is reachable.
 */
export async function postgresSchema(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const base =
    process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const admin = new pg.Client({ connectionString: base });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const u = new URL(base);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

/**
 * Runs a benchmark's `main` and ends the process: with exit 0 after printing the JSON line of the
 * figures `main` answers (if it answers some rather than printing them itself), or with the error
 * on stderr and exit 1 whatever fails — and also when nothing is left to wait for while `main` has
 * not finished (a promise that never settles would otherwise end the process quietly with exit 0).
 */
export function runBench(name: string, main: () => Promise<object | void>): void {
  const log = benchLog(name);
  let finished = false;
  process.once('beforeExit', () => {
    if (finished) return;
    log('failed: ended before finishing (nothing left to wait for: a promise that never settles)');
    process.exit(1);
  });
  main().then(
    (figures) => {
      finished = true;
      if (figures) process.stdout.write(`${JSON.stringify(figures)}\n`, () => process.exit(0));
      else process.exit(0);
    },
    (err: unknown) => {
      finished = true;
      log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      process.exit(1);
    },
  );
}

/** /proc counts CPU time in clock ticks of 10 ms (USER_HZ 100). */
const TICKS_PER_MS = 100 / 1000;

/** CPU time (user + system) a process has spent, in ms (10 ms steps: sum it over many calls); 0 once it has gone. */
export function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_MS;
  } catch {
    return 0;
  }
}
