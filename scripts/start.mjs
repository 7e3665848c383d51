#!/usr/bin/env node
// `npm start`: builds what is missing, starts the api (embedded PGlite under ./data unless
// DATABASE_URL is set) and the gateway, waits until both answer /health, prints the URL and
// the demo accounts, and stops both cleanly on Ctrl+C. A process that stops on its own is
// started again after a growing pause; the other one keeps running.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env };
env.PORT ??= '8080';
env.API_PORT ??= '3000';
env.API_URL ??= `http://127.0.0.1:${env.API_PORT}`;
env.DATA_DIR ??= join(root, 'data');
const quiet = env.START_QUIET === '1';

function newest(dir) {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newest(p) : s.mtimeMs);
  }
  return t;
}

// Build the client when dist/ is missing or older than its sources (not when CLIENT_DIST names another build).
const dist = join(root, 'client', 'dist', 'index.html');
const sources = [join(root, 'client', 'src'), join(root, 'shared', 'src'), join(root, 'locales')];
if (!env.CLIENT_DIST && (!existsSync(dist) || Math.max(...sources.map(newest)) > statSync(dist).mtimeMs)) {
  console.log('Building the console (client/dist) …');
  const r = spawnSync('npm', ['run', 'build', '-w', 'client'], { cwd: root, stdio: quiet ? 'ignore' : 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const children = new Map();
const RESTART_DELAYS_MS = [1000, 2000, 5000, 10_000, 30_000];
function run(name, entry, nodeFlags = [], restarts = 0) {
  const startedAt = Date.now();
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', entry], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    // A process that ran for a minute starts again from the shortest pause.
    const failures = Date.now() - startedAt > 60_000 ? 0 : restarts;
    const delay = RESTART_DELAYS_MS[Math.min(failures, RESTART_DELAYS_MS.length - 1)];
    const other = name === 'api' ? 'gateway' : 'api';
    console.error(
      `${name} stopped (${signal ?? code}); restarting it in ${delay / 1000} s, the ${other} keeps running.`,
    );
    setTimeout(() => !stopping && run(name, entry, nodeFlags, failures + 1), delay);
  });
  children.set(name, child);
  return child;
}

async function waitHealthy(url, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return true;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  const running = [...children.values()];
  for (const c of running) c.kill('SIGTERM');
  const force = setTimeout(() => running.forEach((c) => c.kill('SIGKILL')), 8000);
  Promise.all(running.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.on('exit', r))))).then(() => {
    clearTimeout(force);
    process.exit(code);
  });
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

run('api', join(root, 'api', 'src', 'main.ts'));
if (!(await waitHealthy(`${env.API_URL}/health`, 120_000))) {
  console.error('The api did not become healthy within 120 s.');
  stop(1);
} else {
  // A 32 MB young generation: see gateway/src/main.ts.
  run('gateway', join(root, 'gateway', 'src', 'main.ts'), ['--max-semi-space-size=32']);
  if (!(await waitHealthy(`http://127.0.0.1:${env.PORT}/health`, 60_000))) {
    console.error('The gateway did not become healthy within 60 s.');
    stop(1);
  } else {
    console.log(`
  Property Management System is running at http://localhost:${env.PORT}

  Demo accounts:  admin / admin123      (role ADMIN, every permission)
                  staff / staff123      (limited role)
                  resident1 / resident123  (resident, for the /api/app/* resident API)

  Press Ctrl+C to stop.
`);
  }
}
