// `npm start` as an operator and a process manager see it (issue 17): a port in use, a wrong
// DATABASE_URL are one line naming the setting and the fix, exit code 1 and nothing left
// running; the gateway never starts in front of somebody else's api; SIGTERM to `npm start`
// stops both processes and frees their ports, and so does the supervisor's sudden death.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startUpProblem } from '../../api/src/start-up-problems';
import { freePort, PORT_TAKEN, repoRoot } from '../support/kit';

let dist: string;
let dataDir: string;
const foreign: Server[] = [];

beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'start-dist-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
});
afterEach(async () => {
  await Promise.all(foreign.splice(0).map((s) => new Promise((r) => s.close(r))));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

/** Another program on `port`, answering every request (even /health) with 200. */
async function occupy(port: number, host = '127.0.0.1'): Promise<void> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  await new Promise<void>((r) => server.listen(port, host, r));
  foreign.push(server);
}

async function isFree(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}

async function settings(extra: Record<string, string> = {}) {
  dataDir = join(mkdtempSync(join(tmpdir(), 'start-')), 'data');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(await freePort()),
    API_PORT: String(await freePort()),
    DATA_DIR: dataDir,
    CLIENT_DIST: dist,
    START_QUIET: '1',
    METRICS_PORT: '0',
    API_METRICS_PORT: '0',
    DATABASE_URL: '',
    REDIS_URL: '',
    ...extra,
  };
  delete env.LOG_LEVEL; // the default level: every line an operator would see
  delete env.API_URL;
  return env;
}

/** scripts/start.mjs to its end: exit code and everything it printed. */
function startToEnd(env: NodeJS.ProcessEnv): { status: number | null; output: string } {
  const r = spawnSync(process.execPath, [join(repoRoot, 'scripts/start.mjs')], {
    cwd: repoRoot,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}`.trim() };
}

/** Every process below `pid` (children, grandchildren …). */
function descendants(pid: number): number[] {
  const ps = spawnSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' }).stdout;
  const pairs = ps
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number));
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of pairs)
      if (parent === p) {
        out.push(child);
        walk(child);
      }
  };
  walk(pid);
  return out;
}

const alive = (pid: number) => spawnSync('kill', ['-0', String(pid)]).status === 0;

async function until(probe: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${probe.toString()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('npm start: start-up failures', () => {
  it("when the gateway's PORT is in use, then one line names PORT and the fix, exit 1, and nothing was started", async () => {
    const env = await settings();
    await occupy(Number(env.PORT), '0.0.0.0');
    const { status, output } = startToEnd(env);
    expect(status).toBe(1);
    expect(output.split('\n')).toEqual([
      `PORT ${env.PORT} is already in use by another process: stop that process, or start on a free port, e.g. PORT=${Number(env.PORT) + 1} npm start`,
    ]);
    expect(output).toMatch(PORT_TAKEN); // startProduct starts again on other ports
    expect(await isFree(Number(env.API_PORT))).toBe(true);
  });

  it("when the api's port is in use by another program answering /health, then no gateway starts in front of it: one line names API_PORT, exit 1", async () => {
    const env = await settings();
    await occupy(Number(env.API_PORT));
    const { status, output } = startToEnd(env);
    expect(status).toBe(1);
    expect(output.split('\n')).toHaveLength(1);
    expect(output).toMatch(new RegExp(`^API_PORT ${env.API_PORT} is already in use .*API_PORT=\\d+ npm start$`));
    expect(output).toMatch(PORT_TAKEN);
    expect(output).not.toContain('running at');
    expect(await isFree(Number(env.PORT))).toBe(true);
  });

  it("when the api itself finds its port taken (another process bound it after npm start's check), then its line says so as the test kit expects, to start again elsewhere", () => {
    const taken = Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE', syscall: 'listen', port: 36055 });
    const line = startUpProblem(taken, { port: 36055, host: '127.0.0.1', dataDir: '/tmp/x' });
    expect(line).toBe(
      'API_PORT 36055 is already in use on 127.0.0.1 by another process: stop that process, or set API_PORT to a free port',
    );
    expect(line).toMatch(PORT_TAKEN);
  });

  it('when DATABASE_URL is not a URL, cannot be reached or names an unknown host, then one line names DATABASE_URL and the fix, exit 1, no gateway', async () => {
    const closed = await freePort();
    const cases: [string, RegExp][] = [
      [
        'not-a-url',
        /^DATABASE_URL is not a PostgreSQL URL: write it as postgres:\/\/user:password@host:5432\/database/,
      ],
      [
        'postgres://pm@no-such-host.invalid:5432/pm',
        /^DATABASE_URL: cannot reach host no-such-host\.invalid \(no such host name\)/,
      ],
      [
        `postgres://pm@127.0.0.1:${closed}/pm`,
        new RegExp(`^DATABASE_URL: cannot reach host 127\\.0\\.0\\.1:${closed} \\(ECONNREFUSED\\)`),
      ],
    ];
    for (const [url, line] of cases) {
      const env = await settings({ DATABASE_URL: url });
      const { status, output } = startToEnd(env);
      expect(status, url).toBe(1);
      expect(output.split('\n'), url).toHaveLength(1);
      expect(output, url).toMatch(line);
      expect(await isFree(Number(env.PORT)), url).toBe(true);
    }
  });
});

describe('npm start: stopping', () => {
  let npm: ChildProcess | null = null;
  afterEach(() => {
    if (npm?.pid && alive(npm.pid)) npm.kill('SIGKILL');
  });

  async function startNpm(env: NodeJS.ProcessEnv): Promise<{ pids: number[]; output: () => string }> {
    mkdirSync(env.DATA_DIR!, { recursive: true });
    npm = spawn('npm', ['start'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    npm.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    npm.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    await until(() => output.includes('is running at'), 120_000);
    const pids = descendants(npm.pid!);
    return { pids, output: () => output };
  }

  it('when a process manager sends SIGTERM to the npm start process, then the api and the gateway stop and their ports are free', async () => {
    const env = await settings();
    const { pids } = await startNpm(env);
    const ps = spawnSync('ps', ['-o', 'args=', '-p', pids.join(',')], { encoding: 'utf8' }).stdout;
    expect(ps).toContain('api/src/main.ts');
    // The gateway built ahead (scripts/build-gateway.mjs): plain node, no compiling at start.
    expect(ps).toContain('gateway/dist/main.js');

    npm!.kill('SIGTERM');
    await until(() => pids.every((pid) => !alive(pid)));
    expect(await isFree(Number(env.PORT))).toBe(true);
    expect(await isFree(Number(env.API_PORT))).toBe(true);
  });

  it('when the supervisor itself is killed (SIGKILL), then the api and the gateway notice and stop', async () => {
    const env = await settings();
    const { pids } = await startNpm(env);
    const supervisor = pids.find((pid) =>
      spawnSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).stdout.includes('start.mjs'),
    )!;
    process.kill(supervisor, 'SIGKILL');
    await until(() => pids.every((pid) => !alive(pid)));
    expect(await isFree(Number(env.PORT))).toBe(true);
    expect(await isFree(Number(env.API_PORT))).toBe(true);
  });
});
