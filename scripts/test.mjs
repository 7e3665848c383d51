#!/usr/bin/env node
// `npm test`: typecheck, lint, build the console, then every unit, integration and browser
// test in one vitest run. Ends with one line "summary: N passed, N failed".
// Extra arguments go to vitest (e.g. `npm test -- --project api`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
let passed = 0;
let failed = 0;

/**
 * Runs a check with its output kept until it ends, then prints it under the check's name, so
 * checks run side by side (each of tsc, eslint and the build mostly uses one core) read one after
 * the other. Resolves whether it passed.
 */
function step(name, cmd, cmdArgs) {
  const t = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, { cwd: root, env: { ...process.env, FORCE_COLOR: '1' } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      const ok = code === 0;
      process.stdout.write(`\n── ${name} ──\n${out}`);
      console.log(`${name}: ${ok ? 'passed' : 'FAILED'} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
      if (ok) passed++;
      else failed++;
      resolve(ok);
    });
  });
}

// Browser tests drive Debian's Chromium; install it on a fresh machine (never a downloaded browser).
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromiumPath)) {
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.log("Installing Debian's chromium for the browser tests …");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
  }
  if (!existsSync(chromiumPath))
    console.log(
      `No Chromium at ${chromiumPath}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH.`,
    );
}

// The three checks run side by side: on a 2-core runner that saves minutes of a CI run.
const [, , built] = await Promise.all([
  step('typecheck', 'npm', ['run', '--silent', 'typecheck']),
  step('lint', 'npm', ['run', '--silent', 'lint']),
  step('build console', 'npm', ['run', '--silent', 'build']),
]);

const report = join(root, '.tmp', 'vitest.json');
mkdirSync(dirname(report), { recursive: true });
rmSync(report, { force: true });
if (built || args.length) {
  console.log('\n── tests ──');
  spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  });
  try {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests + (r.numTotalTestSuites > 0 && r.success === false && r.numFailedTests === 0 ? 1 : 0);
    if (r.numPendingTests || r.numTodoTests) {
      console.log(`skipped or todo tests are not allowed: ${r.numPendingTests + r.numTodoTests}`);
      failed++;
    }
  } catch {
    console.log('tests: the run produced no report');
    failed++;
  }
}
// Which engines the api and gateway suites ran on (vitest.config.ts picks the suites).
const engines = [
  'PGlite',
  process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PostgreSQL not configured (TEST_DATABASE_URL)',
  process.env.TEST_REDIS_URL ? 'Redis' : 'Redis not configured (TEST_REDIS_URL)',
];
console.log(`\nengines: ${engines.join(', ')}`);
console.log(`summary: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
