// The chaos harness's own PostgreSQL and Redis: the machine's binaries, a fresh cluster in a
// temporary folder, free ports. The shared services (5432, 6379) are never touched, so killing
// and restarting these disturbs no other test running beside the harness.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../support/product';

/** Where Debian and the official images put PostgreSQL's server binaries. */
function pgBin(name: string): string {
  const debian = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => `/usr/lib/postgresql/${v}/bin`)
    : [];
  const dirs = [process.env.PG_BIN, '/usr/local/bin', ...debian];
  for (const dir of dirs) if (dir && existsSync(join(dir, name))) return join(dir, name);
  throw new Error(`${name} not found (set PG_BIN to the folder of PostgreSQL's server binaries)`);
}

export interface Server {
  port: number;
  pid(): number | undefined;
  alive(): boolean;
  start(): Promise<void>;
  /** Ends the server with `signal` and waits for its exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** The servers running now, for the harness's last-resort cleanup. */
export const runningServers = new Map<ChildProcess, NodeJS.Signals>();
function track(child: ChildProcess, lastResort: NodeJS.Signals): ChildProcess {
  runningServers.set(child, lastResort);
  child.once('exit', () => runningServers.delete(child));
  return child;
}

function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function until(probe: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not come up within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` user. */
function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (id.status !== 0) throw new Error('running as root needs a `postgres` user to own the cluster');
  return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** A fresh cluster in `dir` (trust authentication, no fsync: a test server), database `pm`. */
export async function startPostgres(dir: string): Promise<Server & { url: string }> {
  const user = runAs();
  mkdirSync(dir, { recursive: true });
  if (user.uid !== undefined) chownSync(dir, user.uid, user.gid!);
  const init = spawnSync(pgBin('initdb'), ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8'], {
    ...user,
    encoding: 'utf8',
  });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  let child: ChildProcess | undefined;
  const server = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/pm`,
    pid: () => child?.pid,
    alive: () => !!child && child.exitCode === null && child.signalCode === null,
    async start() {
      child = track(
        spawn(
          pgBin('postgres'),
          ['-D', join(dir, 'data'), '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1'].concat([
            '-c',
            'fsync=off',
            '-c',
            'max_connections=200',
            '-c',
            'shared_buffers=32MB',
          ]),
          { ...user, stdio: 'ignore' },
        ),
        // Fast shutdown: PostgreSQL removes its shared memory and socket.
        'SIGINT',
      );
      await until(async () => {
        const c = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
        c.on('error', () => undefined);
        try {
          await c.connect();
          await c.query('select 1');
          return true;
        } finally {
          await c.end().catch(() => undefined);
        }
      }, 'PostgreSQL');
    },
    async stop(signal: NodeJS.Signals = 'SIGINT') {
      const c = child;
      if (!c) return;
      c.kill(signal);
      await exitOf(c);
    },
  };
  await server.start();
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('create database pm');
  await admin.end();
  return server;
}

/** redis-server on a free port, nothing saved to disk (Redis gone means its data gone too). */
export async function startRedis(): Promise<Server & { url: string }> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    pid: () => child?.pid,
    alive: () => !!child && child.exitCode === null && child.signalCode === null,
    async start() {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
      child = track(spawn('redis-server', args, { stdio: 'ignore' }), 'SIGKILL');
      await until(async () => {
        const ping = spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' });
        return ping.stdout.trim() === 'PONG';
      }, 'Redis');
    },
    async stop(signal: NodeJS.Signals = 'SIGKILL') {
      const c = child;
      if (!c) return;
      c.kill(signal);
      await exitOf(c);
    },
  };
}
