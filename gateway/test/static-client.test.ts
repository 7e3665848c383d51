import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type GatewayHandle } from '../src/server';

// The built console as the gateway serves it (issue 17): pre-compressed copies chosen by
// Accept-Encoding, a favicon and robots.txt, and 404 for files that do not exist.
let dist: string;
let gateway: GatewayHandle;
const script = 'console.log("the console");'.repeat(200);
const icon = Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0]);

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'gateway-static-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dist, 'assets', 'index-3f2a9c.js'), script);
  writeFileSync(join(dist, 'assets', 'index-3f2a9c.js.br'), brotliCompressSync(script));
  writeFileSync(join(dist, 'assets', 'index-3f2a9c.js.gz'), gzipSync(script));
  writeFileSync(join(dist, 'favicon.ico'), icon);
  writeFileSync(join(dist, 'robots.txt'), 'User-agent: *\nDisallow: /\n');
  // The api is not needed for files: an address where nothing listens.
  gateway = await startGateway({ apiUrl: 'http://127.0.0.1:9', logLevel: 'silent', clientDist: dist });
});
afterAll(async () => {
  await gateway?.close();
  rmSync(dist, { recursive: true, force: true });
});

/** The raw answer: status, headers and the bytes as they travelled. */
function raw(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      get(`${gateway.url}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    },
  );
}

describe('the console files', () => {
  it('when the browser accepts brotli, then the brotli copy is sent, with its encoding, the type of the file and Vary', async () => {
    const res = await raw('/assets/index-3f2a9c.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.body.equals(brotliCompressSync(script))).toBe(true);
  });

  it('when the browser accepts only gzip, or nothing, then the gzip copy, or the file itself', async () => {
    const gz = await raw('/assets/index-3f2a9c.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.equals(gzipSync(script))).toBe(true);
    const plain = await raw('/assets/index-3f2a9c.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('when the browser asks for the favicon or robots.txt, then it gets them, not the console page', async () => {
    const fav = await raw('/favicon.ico', { accept: 'image/avif,image/webp,*/*' });
    expect(fav.status).toBe(200);
    expect(fav.headers['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    expect(fav.body.equals(icon)).toBe(true);
    const robots = await raw('/robots.txt', { accept: '*/*' });
    expect(robots.headers['content-type']).toMatch(/^text\/plain/);
    expect(robots.body.toString()).toContain('Disallow: /');
  });

  it('when a file that does not exist is asked for, even wanting HTML, then 404 and not the console page', async () => {
    for (const path of ['/assets/nope.js', '/assets/', '/nope.png', '/static/app.css', '/apple-touch-icon.png']) {
      const res = await raw(path, { accept: 'text/html,*/*' });
      expect(res.status, path).toBe(404);
      expect(res.body.toString(), path).not.toContain('id="root"');
    }
  });

  it('when a client route is asked for, then the console page is served', async () => {
    for (const path of ['/', '/login', '/complaint/list', '/system/account']) {
      const res = await raw(path, { accept: 'text/html' });
      expect(res.status, path).toBe(200);
      expect(res.body.toString(), path).toContain('id="root"');
    }
  });
});
