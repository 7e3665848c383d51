// The api process listens on loopback unless told otherwise (issue 14 item 2): under `npm start`
// the gateway is the only way in, so nobody on the network reaches the api around it.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnApi, type ApiProcess } from './kit';

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
  let api: ApiProcess;
  let listening: { host: string; port: number };

  beforeAll(async () => {
    api = await spawnApi({
      API_PORT: '0',
      API_HOST: undefined,
      DATABASE_URL: undefined,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    });
    const line = await api.logLine((l) => l.msg === 'api listening');
    listening = { host: line.host as string, port: line.port as number };
  }, 90_000);

  afterAll(async () => {
    await api?.stop();
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
