#!/usr/bin/env node
// `npm start`: builds what is missing, starts the api (embedded PGlite under ./data unless
// DATABASE_URL is set) and the gateway, prints the URL and the demo accounts once both are
// ready, and stops both cleanly on Ctrl+C, SIGTERM or when its own parent goes away.
//
// - Start-up: PORT and API_PORT are checked first; a port in use is one line naming the
//   variable and the fix, exit code 1, nothing started. Each process says it is ready over an
//   IPC channel (not by answering /health, which another program on the port could do). A
//   process that fails while starting (a bad DATABASE_URL, an unwritable DATA_DIR …) prints its
//   own one-line reason; the other one is stopped and `npm start` exits 1.
// - Running: a process that stops on its own is started again after a growing pause
//   (1, 2, 5, 10, 30 s); the other one keeps running.
// - Stopping: SIGINT/SIGTERM stop both (SIGKILL after 8 s) and free their ports. npm runs this
//   script under `sh -c`, which dies of a SIGTERM sent to `npm start` without passing it on: a
//   changed parent process id is therefore treated as SIGTERM. The children stop by themselves
//   when this supervisor disappears (their IPC channel closes), even after a SIGKILL.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gatewayBundle, newest } from './build-gateway.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env };
env.PORT ||= '8080';
env.API_PORT ||= '3000';
env.API_URL ||= `http://127.0.0.1:${env.API_PORT}`;
env.DATA_DIR ||= join(root, 'data');
const quiet = env.START_QUIET === '1';

/** A start-up failure: one line, exit code 1, nothing left running. */
function refuse(line) {
  console.error(line);
  process.exit(1);
}

/** Whether something already listens on `port` (as the service would bind it: all addresses, or `host`). */
function portInUse(port, host) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (err) => resolve(err.code === 'EADDRINUSE'));
    probe.listen(Number(port), host, () => probe.close(() => resolve(false)));
  });
}

for (const [name, host] of [
  ['PORT', undefined],
  ['API_PORT', env.API_HOST || '127.0.0.1'],
]) {
  if (!/^\d+$/.test(env[name]) || Number(env[name]) > 65535)
    refuse(`${name} must be a port number, not "${env[name]}"`);
  if (Number(env[name]) !== 0 && (await portInUse(env[name], host)))
    refuse(
      `${name} ${env[name]} is already in use by another process: stop that process, or start on a free port, e.g. ${name}=${Number(env[name]) + 1} npm start`,
    );
}

// Build the client when dist/ is missing or older than what it is built from (not when CLIENT_DIST names another build).
const dist = join(root, 'client', 'dist', 'index.html');
const sources = [
  ...['src', 'public', 'build', 'index.html', 'vite.config.ts'].map((p) => join(root, 'client', p)),
  join(root, 'shared', 'src'),
  join(root, 'locales'),
];
if (
  !env.CLIENT_DIST &&
  (!existsSync(dist) || Math.max(...sources.filter((p) => existsSync(p)).map(newest)) > statSync(dist).mtimeMs)
) {
  console.log('Building the console (client/dist) …');
  const r = spawnSync('npm', ['run', 'build', '-w', 'client'], { cwd: root, stdio: quiet ? 'ignore' : 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const children = new Map();
const RESTART_DELAYS_MS = [1000, 2000, 5000, 10_000, 30_000];
let stopping = false;

/**
 * Starts `entry`; resolves once it says it is ready. On the first start, ending before that
 * rejects (a start-up failure); after that, any stop of its own is answered by starting it
 * again after a pause.
 */
function run(name, entry, nodeFlags = [], restarts = 0, firstStart = true) {
  return new Promise((resolve, reject) => {
    const startedAt = Date.now();
    let ready = false;
    // A source (.ts) runs through tsx; a file built ahead (the gateway's bundle) as it is.
    const loader = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
    const child = spawn(process.execPath, [...nodeFlags, ...loader, entry], {
      cwd: root,
      env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.set(name, child);
    child.on('message', (message) => {
      if (message?.ready !== name || ready) return;
      ready = true;
      resolve();
    });
    child.on('exit', (code, signal) => {
      if (stopping) return;
      if (!ready && firstStart) {
        reject(Object.assign(new Error(`${name} did not start`), { code: code || 1 }));
        return;
      }
      // A process that ran for a minute starts again from the shortest pause.
      const failures = Date.now() - startedAt > 60_000 ? 0 : restarts;
      const delay = RESTART_DELAYS_MS[Math.min(failures, RESTART_DELAYS_MS.length - 1)];
      const other = name === 'api' ? 'gateway' : 'api';
      console.error(
        `${name} stopped (${signal ?? code}); restarting it in ${delay / 1000} s, the ${other} keeps running.`,
      );
      setTimeout(() => {
        if (stopping) return;
        void Promise.resolve(name === 'gateway' ? gatewayEntry() : entry).then((next) =>
          run(name, next, nodeFlags, failures + 1, false),
        );
      }, delay);
    });
  });
}

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  const running = [...children.values()].filter((c) => c.exitCode === null && c.signalCode === null);
  for (const c of running) c.kill('SIGTERM');
  const force = setTimeout(() => running.forEach((c) => c.kill('SIGKILL')), 8000);
  Promise.all(running.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once('exit', r))))).then(() => {
    clearTimeout(force);
    process.exit(code);
  });
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
process.on('SIGHUP', () => stop(0));
// Our parent (npm's `sh -c`) is gone: whoever started us wants everything stopped.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && stop(0), 500).unref();

/**
 * The gateway runs from its bundle built ahead (scripts/build-gateway.mjs: plain `node` starts it
 * without compiling its sources, which took 10–13 s of a restart under load, README issue 34
 * "Part 18"), built again here when its sources changed; from its sources through tsx when it
 * cannot be built. Asked again at every restart, so a restart runs the sources as they are.
 */
async function gatewayEntry() {
  return (await gatewayBundle()) ?? join(root, 'gateway', 'src', 'main.ts');
}

// A 32 MB young generation: see gateway/src/main.ts. GATEWAY_SOURCE_MAPS=1: stack traces name the
// sources' lines (the bundle's map; tsx's own maps when it runs the sources).
const gatewayFlags = ['--max-semi-space-size=32', ...(env.GATEWAY_SOURCE_MAPS === '1' ? ['--enable-source-maps'] : [])];

try {
  await run('api', join(root, 'api', 'src', 'main.ts'));
  await run('gateway', await gatewayEntry(), gatewayFlags);
} catch (err) {
  // The process printed its own reason; stop the other one and say no more.
  stop(err.code || 1);
}
if (!stopping) {
  const demoSeeded = env.SEED_DEMO === '1' || (!env.DATABASE_URL && env.SEED_DEMO !== '0');
  const demo = !demoSeeded
    ? ''
    : `
  Demo accounts:  admin / admin123      (role ADMIN, every permission)
                  staff / staff123      (limited role)
                  wall / wall123        (read-only wall screen at /wall)
                  resident1 / resident123  (resident, for the /api/app/* resident API)
`;
  console.log(`
  Property Management System is running at http://localhost:${env.PORT}
${demo}
  Press Ctrl+C to stop.
`);
}
