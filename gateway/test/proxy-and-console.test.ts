import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayHandle, GatewayOptions } from '../src/server';
import { translate } from '../src/locale-messages';
import { login, metric, personIdOf, startRealApi, startTestGateway } from './kit';

let api: Awaited<ReturnType<typeof startRealApi>>;
let gateway: GatewayHandle | null = null;
let peers: Server[] = [];
let dist: string;

beforeAll(async () => {
  api = await startRealApi();
  dist = mkdtempSync(join(tmpdir(), 'gateway-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dist, 'assets', 'index-3f2a9c.js'), 'console.log("app")');
});

afterAll(async () => {
  await api?.cleanup();
  rmSync(dist, { recursive: true, force: true });
});

afterEach(async () => {
  await gateway?.close();
  gateway = null;
  for (const p of peers) p.closeAllConnections();
  await Promise.all(peers.map((p) => new Promise((r) => p.close(r))));
  peers = [];
});

async function start(options: Partial<GatewayOptions> = {}): Promise<GatewayHandle> {
  gateway = await startTestGateway(api, { clientDist: dist, ...options });
  return gateway;
}

/** A real HTTP peer on port 0 that accepts requests and never answers (a hung api). */
async function hungPeer(): Promise<string> {
  const peer = createServer(() => undefined);
  peers.push(peer);
  await new Promise<void>((r) => peer.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
}

/** An address where nothing listens (the api is down). */
async function deadAddress(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return `http://127.0.0.1:${port}`;
}

describe('the /api proxy', () => {
  it('when a signed-in call goes through /api, then the api answers it with the Authorization passed through', async () => {
    await start();
    const token = await login(api.url, 'admin', 'admin123');
    const res = await request(gateway!.url)
      .get('/api/auth/current/user')
      .set('authorization', `Bearer ${token}`)
      .expect(200);
    expect(res.body.code).toBe(200);
    expect(res.body.data.accountInfo.personId).toBe(await personIdOf(api.url, token));
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('when the login form is posted through /api, then the streamed body reaches the api and a token comes back', async () => {
    await start();
    const res = await request(gateway!.url)
      .post('/api/oauth/token')
      .auth('console', 'console-secret')
      .type('form')
      .send({ grant_type: 'password', username: 'staff', password: 'staff123' })
      .expect(200);
    expect(res.body.token_type).toBe('bearer');
    expect(typeof res.body.access_token).toBe('string');
  });

  it("when a call has no token, then the api's own 401 envelope passes through unchanged", async () => {
    await start();
    const res = await request(gateway!.url).get('/api/auth/current/user').expect(401);
    expect(res.body).toMatchObject({ code: 401, data: null });
  });

  it("when the api is down, then /api answers a 502 envelope in the request's language and the gateway stays up", async () => {
    await start({ apiUrl: await deadAddress() });
    const res = await request(gateway!.url).get('/api/auth/current/user').set('lang', 'zh-TW').expect(502);
    expect(res.body).toEqual({ code: 502, msg: translate('zh-TW', 'errors.apiUnavailable'), data: null });
    expect(res.body.msg).toBe('服務暫時無法使用，請稍後重試');

    const again = await request(gateway!.url)
      .post('/api/base/message/unRead')
      .send({ messageTypeList: [11] })
      .expect(502);
    expect(again.body.msg).toBe(translate('en', 'errors.apiUnavailable'));
    const health = await request(gateway!.url).get('/health').expect(503);
    expect(health.body.data).toEqual({ api: false, redis: null });
  });

  it('when the api does not answer in time, then /api answers a 504 envelope instead of hanging', async () => {
    await start({ apiUrl: await hungPeer(), proxyTimeoutMs: 300 });
    const res = await request(gateway!.url).get('/api/complain/list').set('lang', 'zh-CN').expect(504);
    expect(res.body).toEqual({ code: 504, msg: translate('zh-CN', 'errors.gatewayTimeout'), data: null });
    expect(await metric(gateway!.url, 'gateway_proxy_duration_seconds_count', { status: '504' })).toBe(1);
  });
});

describe('the console and operations endpoints', () => {
  it('when a hashed asset is requested, then it is cached for a year', async () => {
    await start();
    const res = await request(gateway!.url).get('/assets/index-3f2a9c.js').expect(200);
    expect(res.headers['cache-control']).toContain('max-age=31536000');
    expect(res.headers['cache-control']).toContain('immutable');
    await request(gateway!.url).get('/assets/missing-000000.js').expect(404);
  });

  it('when a client route is requested, then index.html is served with no-cache', async () => {
    await start();
    const res = await request(gateway!.url).get('/complaint/list').set('accept', 'text/html').expect(200);
    expect(res.text).toContain('<div id="root">');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('when the api is up, then /health answers 200', async () => {
    await start();
    const res = await request(gateway!.url).get('/health').expect(200);
    expect(res.body).toEqual({ code: 200, msg: 'ok', data: { api: true, redis: null } });
  });

  it('when /metrics is scraped after a proxied call, then the gateway metrics are there in Prometheus format', async () => {
    await start();
    await request(gateway!.url).get('/api/auth/current/user');
    const res = await request(gateway!.url).get('/metrics').expect(200);
    expect(res.headers['content-type']).toContain('text/plain');
    for (const name of [
      'gateway_upstream_connections',
      'gateway_client_sockets',
      'gateway_events_total',
      'gateway_proxy_duration_seconds_bucket',
    ]) {
      expect(res.text).toContain(name);
    }
    expect(await metric(gateway!.url, 'gateway_proxy_duration_seconds_count', { status: '401' })).toBe(1);
  });
});
