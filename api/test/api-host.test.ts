// The api process listens on loopback unless told otherwise (issue 14 item 2): under `npm start`
// the gateway is the only way in, so nobody on the network reaches the api around it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** Whether a TCP connection to host:port is accepted. */
function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host, port, timeout: 2_000 });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
    socket.once('timeout', () => {
      socket.destroy();
      done(false);
    });
  });
}

describe('the api process without API_HOST', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pm-host-'));
  let child: ChildProcess;
  let listening: { host: string; port: number };

  beforeAll(async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, API_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' };
    delete env.API_HOST;
    delete env.DATABASE_URL;
    child = spawn(process.execPath, ['--import', 'tsx', join(root, 'api/src/main.ts')], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    listening = await new Promise((done, fail) => {
      let buffered = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        const line = buffered.split('\n').find((l) => l.includes('"api listening"'));
        if (line) done(JSON.parse(line) as { host: string; port: number });
      });
      child.once('exit', (code) => fail(new Error(`api exited with ${code}`)));
    });
  }, 90_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when it starts, then it listens on loopback only and no other address of the machine reaches it', async () => {
    expect(listening.host).toBe('127.0.0.1');
    expect(await reachable('127.0.0.1', listening.port)).toBe(true);
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && !a.internal && a.family === 'IPv4')
      .map((a) => a!.address);
    for (const address of others) expect(await reachable(address, listening.port), address).toBe(false);
  });
});
