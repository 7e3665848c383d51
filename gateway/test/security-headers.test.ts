import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type GatewayHandle } from '../src/server';
import { startRealApi, startTestGateway } from './kit';

let api: Awaited<ReturnType<typeof startRealApi>>;
let gateway: GatewayHandle;
let dist: string;

beforeAll(async () => {
  api = await startRealApi();
  dist = mkdtempSync(join(tmpdir(), 'gateway-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dist, 'assets', 'index-3f2a9c.js'), 'console.log("app")');
  gateway = await startTestGateway(api, { clientDist: dist });
});

afterAll(async () => {
  await gateway?.close();
  await api?.cleanup();
  rmSync(dist, { recursive: true, force: true });
});

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | undefined): Record<string, string> {
  return Object.fromEntries(
    (header ?? '').split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name, values.join(' ')];
    }),
  );
}

describe('security headers', () => {
  it('when the console is served, then scripts and images may come from the gateway only, and it may not be framed or sniffed', async () => {
    for (const path of ['/', '/complaint/list', '/assets/index-3f2a9c.js']) {
      const res = await request(gateway.url).get(path).set('accept', 'text/html').expect(200);
      const csp = directives(res.headers['content-security-policy']);
      expect(csp['script-src']).toBe("'self'");
      expect(csp['img-src']).toBe("'self' data: blob:");
      expect(csp['connect-src']).toBe("'self'");
      expect(csp['object-src']).toBe("'none'");
      expect(csp['frame-ancestors']).toBe("'none'");
      expect(csp).not.toHaveProperty('upgrade-insecure-requests');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('when an api answer comes through /api, then nothing in it may run or be framed and it is not sniffed', async () => {
    const res = await request(gateway.url).get('/api/auth/current/user').expect(401);
    expect(res.body).toMatchObject({ code: 401 });
    const csp = directives(res.headers['content-security-policy']);
    expect(csp['default-src']).toBe("'none'");
    expect(csp['frame-ancestors']).toBe("'none'");
    expect(csp).toHaveProperty('sandbox');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('when the api is down, then the envelope the gateway answers itself carries the same headers', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const deadUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise((r) => probe.close(r));
    const orphan = await startGateway({ apiUrl: deadUrl, logLevel: 'silent' });
    try {
      const res = await request(orphan.url).get('/api/complain/list').expect(502);
      expect(res.body).toMatchObject({ code: 502, data: null });
      expect(directives(res.headers['content-security-policy'])['default-src']).toBe("'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    } finally {
      await orphan.close();
    }
  });
});
