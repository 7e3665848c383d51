// Benchmarks that report (issue 34): a benchmark ends with its one JSON line or a non-zero exit,
// whatever fails — an error, or a main that can never finish — and `npm run bench` ends with a
// summary naming each benchmark that did not report, and exit 1. Fixture benchmarks in a
// throw-away folder (BENCH_ROOT) use the benchmarks' own `runBench`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/kit';

const kit = JSON.stringify(pathToFileURL(join(repoRoot, 'api/bench/kit.ts')).href);
const fixtures: Record<string, string> = {
  'good.bench.ts': `import { runBench } from ${kit};
runBench('good', async () => ({ bench: 'good', pass: true }));`,
  'throws.bench.ts': `import { runBench } from ${kit};
runBench('throws', async () => { throw new Error('the api did not start'); });`,
  // Waits on a promise that nothing will ever settle (as the gateway bench waited on the api's close).
  'never-settles.bench.ts': `import { runBench } from ${kit};
runBench('never-settles', () => new Promise(() => undefined));`,
  'silent.bench.ts': `process.stderr.write('forgot to print its figures\\n');`,
  'not-json.bench.ts': `process.stdout.write('{ figures: 1 }\\n');`,
  'hangs.bench.ts': `setInterval(() => undefined, 1000);`,
};

const tsx = join(repoRoot, 'node_modules/.bin/tsx');

describe('benchmarks that report', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-runner-'));
  mkdirSync(join(dir, 'gateway/bench'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  for (const [file, text] of Object.entries(fixtures)) writeFileSync(join(dir, 'gateway/bench', file), text);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('when a benchmark main throws or can never finish, then it exits non-zero with the reason on stderr; when it finishes, it prints its line and exits 0', () => {
    const run = (file: string) =>
      spawnSync(tsx, [join(dir, 'gateway/bench', file)], { cwd: repoRoot, encoding: 'utf8' });
    const good = run('good.bench.ts');
    expect(good.status).toBe(0);
    expect(JSON.parse(good.stdout)).toEqual({ bench: 'good', pass: true });
    const throws = run('throws.bench.ts');
    expect(throws.status).toBe(1);
    expect(throws.stdout).toBe('');
    expect(throws.stderr).toContain('[throws bench] failed: Error: the api did not start');
    const never = run('never-settles.bench.ts');
    expect(never.status).toBe(1);
    expect(never.stderr).toContain('[never-settles bench] failed: ended before finishing');
  }, 60_000);

  it('when some benchmarks do not report, then npm run bench passes the good lines through, names each of the others with why, and exits 1', () => {
    const r = spawnSync(process.execPath, [join(repoRoot, 'scripts/bench.mjs')], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, BENCH_ROOT: dir, BENCH_TIMEOUT_MINUTES: '0.25' },
    });
    expect(r.status).toBe(1);
    expect(r.stdout.trim().split('\n')).toEqual(['{"bench":"good","pass":true}']);
    const summary = r.stderr.slice(r.stderr.indexOf('5 of 6 benchmarks did not report:'));
    expect(summary).toContain('gateway/bench/throws.bench.ts: exit 1');
    expect(summary).toContain('gateway/bench/never-settles.bench.ts: exit 1');
    expect(summary).toContain('gateway/bench/silent.bench.ts: exit 0 but no JSON line');
    expect(summary).toContain('gateway/bench/not-json.bench.ts: printed a line that is not JSON');
    expect(summary).toContain('gateway/bench/hangs.bench.ts: still running after 0.25 min (stopped)');
    expect(summary).not.toContain('good.bench.ts');
  }, 90_000);
});
