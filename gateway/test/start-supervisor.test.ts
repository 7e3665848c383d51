import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from './kit';

// `npm start` (scripts/start.mjs) as a real process tree: the supervisor, the api and the gateway.
const root = resolve(import.meta.dirname, '../..');
let supervisor: ChildProcess | null = null;
let dirs: string[] = [];

afterEach(async () => {
  if (supervisor && supervisor.exitCode === null && supervisor.signalCode === null) {
    const exited = new Promise((r) => supervisor!.once('exit', r));
    supervisor.kill('SIGTERM');
    await exited;
  }
  supervisor = null;
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as { port: number };
  await new Promise((r) => probe.close(r));
  return port;
}

/** The pid of the supervisor's child running `entry`. */
function childRunning(entry: string): number | undefined {
  const ps = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(supervisor!.pid)], { encoding: 'utf8' });
  const line = ps.stdout.split('\n').find((l) => l.includes(entry));
  return line ? Number(line.trim().split(/\s+/)[0]) : undefined;
}

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

describe('npm start', () => {
  it('when the gateway is killed, then it is started again and the api keeps answering throughout', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'start-data-'));
    const dist = mkdtempSync(join(tmpdir(), 'start-dist-'));
    dirs.push(dataDir, dist);
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    const [port, apiPort] = [await freePort(), await freePort()];
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      API_PORT: String(apiPort),
      DATA_DIR: dataDir,
      CLIENT_DIST: dist,
      START_QUIET: '1',
      LOG_LEVEL: 'warn',
    };
    delete env.DATABASE_URL;
    delete env.API_URL;
    delete env.REDIS_URL;
    supervisor = spawn(process.execPath, [join(root, 'scripts/start.mjs')], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    supervisor.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    supervisor.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const gatewayUrl = `http://127.0.0.1:${port}`;
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    await waitFor(() => output.includes('is running at'), 150_000);
    const apiPid = childRunning('api/src/main.ts');
    const gatewayPid = childRunning('gateway/dist/main.js');
    expect(apiPid).toBeGreaterThan(0);
    expect(gatewayPid).toBeGreaterThan(0);

    process.kill(gatewayPid!, 'SIGKILL');
    let apiAnswers = 0;
    await waitFor(async () => {
      expect(await healthy(apiUrl)).toBe(true);
      apiAnswers++;
      const back = childRunning('gateway/dist/main.js');
      return back !== undefined && back !== gatewayPid && (await healthy(gatewayUrl));
    }, 60_000);

    expect(apiAnswers).toBeGreaterThan(1);
    expect(output).toContain('gateway stopped (SIGKILL); restarting it in 1 s, the api keeps running.');
    expect(childRunning('api/src/main.ts')).toBe(apiPid);
    expect(supervisor.exitCode).toBeNull();
  }, 240_000);
});
