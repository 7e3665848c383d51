// PostgreSQL gone (restarting, or its link cut): every call that needs it answers 503 with a
// message in the person's language and Retry-After, never 500 (issue 35, found by the chaos
// harness). The test stops a PostgreSQL of its own (initdb on a free port, as the chaos harness
// does), never the shared server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import zhCN from '../../locales/zh-CN.json';
import { ResidentClient } from '../../api/src/simulator/resident-client';
import { startPostgres } from '../chaos/servers';
import { spawnService, type ServiceProcess } from '../support/processes';
import { freePort } from '../support/product';

let postgres: Awaited<ReturnType<typeof startPostgres>>;
let api: ServiceProcess;
let apiUrl = '';
const dirs: string[] = [];
const tokens: Record<string, string> = {};
let adminPersonId = 0;

beforeAll(async () => {
  const pgDir = mkdtempSync(join(tmpdir(), 'pm-pgdown-pg-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'pm-pgdown-data-'));
  dirs.push(pgDir, dataDir);
  postgres = await startPostgres(pgDir);
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  api = spawnService('api', {
    API_PORT: String(port),
    API_HOST: '127.0.0.1',
    DATABASE_URL: postgres.url,
    DATA_DIR: dataDir,
    SEED_DEMO: '1',
    API_METRICS_PORT: 'off',
    LOG_LEVEL: 'warn',
  });
  const deadline = Date.now() + 170_000;
  while (
    !(await fetch(`${apiUrl}/health`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (!api.alive() || Date.now() > deadline) throw new Error(`the api did not start:\n${api.text().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  for (const name of ['admin', 'resident1']) {
    const client = new ResidentClient(apiUrl, name);
    await client.login(name === 'admin' ? 'admin123' : 'resident123');
    tokens[name] = (client as unknown as { token: string }).token;
    if (name === 'admin')
      adminPersonId = (await client.call<{ accountInfo: { personId: number } }>('GET', '/auth/current/user'))
        .accountInfo.personId;
  }
  // A second session of the administrator, never used: its token is in no api cache, so checking
  // it needs the database (the api keeps a checked token 30 s).
  const unchecked = new ResidentClient(apiUrl, 'admin');
  await unchecked.login('admin123');
  tokens.adminUnchecked = (unchecked as unknown as { token: string }).token;
  await postgres.stop('SIGINT');
}, 180_000);

afterAll(async () => {
  await api?.stop('SIGKILL');
  await postgres?.stop('SIGQUIT');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function call(method: 'GET' | 'POST', path: string, token?: string, body?: unknown) {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'content-type': 'application/json',
      lang: 'zh-CN',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: (await res.json()) as { msg: string },
  };
}

describe('the api while its PostgreSQL is down', () => {
  const unavailable = {
    status: 503,
    retryAfter: expect.stringMatching(/^[1-9][0-9]*$/),
    body: expect.objectContaining({ code: 503, msg: zhCN.errors.databaseUnavailable }),
  };

  it('when a resident reads or writes, then the answer is 503 with Retry-After and a message in their language', async () => {
    expect(await call('GET', '/app/house/list', tokens.resident1)).toEqual(unavailable);
    expect(
      await call('POST', '/app/complain/save', tokens.resident1, { name: 'x', note: 'x', houseType: 1, houseId: 1 }),
    ).toEqual(unavailable);
  });

  it('when staff read a console list or sign in, then the answer is 503 with Retry-After, not 500', async () => {
    expect(await call('POST', '/complain/query/list', tokens.admin, { page: 1, limit: 10 })).toEqual(unavailable);
    const res = await fetch(`${apiUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('console:console-secret').toString('base64')}`,
        lang: 'zh-CN',
      },
      body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: 'admin123' }),
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(((await res.json()) as { msg: string }).msg).toBe(zhCN.errors.databaseUnavailable);
  });

  it("when a gateway opens a signed-in person's upstream WebSocket, then the upgrade is refused 503 (tried again), not 401 (a revoked token: the gateway signs the tabs out)", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(
        `${apiUrl.replace(/^http/, 'ws')}/${tokens.adminUnchecked}/${adminPersonId}?after=latest`,
      );
      ws.on('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        ws.terminate();
      });
      ws.on('open', () => {
        resolve(101);
        ws.terminate();
      });
      ws.on('error', (err) => (/Unexpected server response/.test(err.message) ? undefined : reject(err)));
    });
    expect(status).toBe(503);
  });
});
