// The logs of both tiers as an operator reads them (issue 17): each request's line is written
// at once (not minutes later, not lost when the process is killed), both tiers write the same
// fields, one request id follows a call from the gateway into the api, and no token, code or
// password reaches either log, in paths and queries included.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiToken, freePorts, spawnService, STAFF, type ServiceProcess } from '../support/kit';

let api: ServiceProcess;
let gateway: ServiceProcess;
let gatewayUrl: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ops-logs-'));
  const ports = await freePorts('api', 'gateway');
  api = spawnService('api', {
    API_PORT: String(ports.api),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    SEED_DEMO: '1',
    API_METRICS_PORT: '0',
  });
  await api.waitForLine((l) => l.msg === 'api listening');
  gateway = spawnService('gateway', {
    PORT: String(ports.gateway),
    API_URL: `http://127.0.0.1:${ports.api}`,
    REDIS_URL: '',
    METRICS_PORT: '0',
  });
  await gateway.waitForLine((l) => l.msg === 'gateway listening');
  gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
});

afterAll(async () => {
  await gateway?.stop();
  await api?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const requestLines = (p: ServiceProcess, reqId: string) =>
  p.lines.filter((l) => l.msg === 'request' && l.reqId === reqId);

describe('the logs of the gateway and the api', () => {
  it('when a call goes through the gateway, then both tiers log it at once, with the same fields and the same request id', async () => {
    const res = await fetch(`${gatewayUrl}/api/health`, { headers: { 'x-request-id': 'trace-4711' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('trace-4711');
    // Both processes keep running: the lines must arrive while they do, not when they end.
    const [gw, ap] = await Promise.all([
      gateway.waitForLine((l) => l.msg === 'request' && l.reqId === 'trace-4711', 10_000),
      api.waitForLine((l) => l.msg === 'request' && l.reqId === 'trace-4711', 10_000),
    ]);
    expect(gw).toMatchObject({ service: 'gateway', method: 'GET', url: '/api/health', status: 200 });
    expect(ap).toMatchObject({ service: 'api', method: 'GET', url: '/health', status: 200 });
    expect(Object.keys(gw).sort()).toEqual(Object.keys(ap).sort());
    expect(typeof gw.ms).toBe('number');

    // Without an id of its own, the call gets the gateway's, and the api logs that one.
    const plain = await fetch(`${gatewayUrl}/api/health`);
    const id = plain.headers.get('x-request-id')!;
    expect(id).toMatch(/^[\w.-]{8,}$/);
    await api.waitForLine((l) => l.msg === 'request' && l.reqId === id, 10_000);
    await gateway.waitForLine((l) => l.msg === 'request' && l.reqId === id, 10_000);
  });

  it('when URLs carry a token, a code or a password, then neither log holds them, and the calls are still there', async () => {
    const token = await apiToken(gatewayUrl, STAFF);
    const secrets = [token, 'staff123', '735194', 'hunter2secret'];
    const calls = [
      `/api/auth/current/user?access_token=${token}&lang=en`,
      `/api/${token}/42`,
      '/api/account/check/forgetpwd/code?code=735194&password=hunter2secret',
    ];
    for (const [i, call] of calls.entries())
      await fetch(`${gatewayUrl}${call}`, { headers: { 'x-request-id': `redact-${i}` } });
    const gw = await Promise.all(calls.map((_, i) => gateway.waitForLine((l) => l.reqId === `redact-${i}`, 10_000)));
    const ap = await Promise.all(calls.map((_, i) => api.waitForLine((l) => l.reqId === `redact-${i}`, 10_000)));
    expect(gw.map((l) => l.url)).toEqual([
      '/api/auth/current/user?access_token=[redacted]&lang=en',
      '/api/[redacted]/42',
      '/api/account/check/forgetpwd/code?code=[redacted]&password=[redacted]',
    ]);
    expect(ap.map((l) => l.url)).toEqual([
      '/auth/current/user?access_token=[redacted]&lang=en',
      '/[redacted]/42',
      '/account/check/forgetpwd/code?code=[redacted]&password=[redacted]',
    ]);
    const everything = JSON.stringify([...gateway.lines, ...api.lines]) + gateway.text() + api.text();
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });

  it('when the gateway is killed with SIGKILL right after answering, then every line it wrote is kept', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `last-words-${i}`);
    for (const id of ids) await fetch(`${gatewayUrl}/health`, { headers: { 'x-request-id': id } });
    await gateway.waitForLine((l) => l.reqId === ids.at(-1), 10_000);
    await gateway.stop('SIGKILL');
    expect(ids.filter((id) => requestLines(gateway, id).length !== 1)).toEqual([]);
  });
});
