// JSON answers are compressed for browsers that accept it (issue 17): brotli or gzip as the
// request's Accept-Encoding says, with Vary, and small or uncompressible answers as they are
// (small: under COMPRESS_FROM, where compressing does not pay, issue 34 Part 31).
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_FROM } from '../src/http/write-envelope';
import { signIn, startTestApi, type TestApi } from './kit';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi('pglite');
});
afterAll(async () => api?.close());

/** The raw answer: headers and the bytes as they travelled (a POST when `body` is given). */
function raw(
  path: string,
  acceptEncoding?: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<{ headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(
      `${api.url}${path}`,
      {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          ...headers,
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...(acceptEncoding && { 'accept-encoding': acceptEncoding }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      },
    )
      .on('error', reject)
      .end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe('compressed JSON answers', () => {
  it('when the browser accepts brotli, then a large JSON answer comes in brotli and decodes to the same JSON', async () => {
    const plain = await raw('/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await raw('/openapi.json', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(plain.body.length / 4);
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(JSON.parse(plain.body.toString()));
  });

  it('when the browser accepts only gzip, then gzip', async () => {
    const gz = await raw('/openapi.json', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString()).openapi).toBeTruthy();
  });

  it("when a route's envelope is over COMPRESS_FROM, then it comes in brotli or gzip as accepted, with Vary, decoding to the same JSON", async () => {
    const staff = await signIn(api, 'admin');
    // A 30-row page of complaints (about 16 KB), through express (the trailing slash keeps it off the fast path).
    const path = '/complain/query/list/';
    const page = { page: 1, limit: 30 };
    const plain = await raw(path, undefined, staff.headers, page);
    expect(plain.body.length).toBeGreaterThan(COMPRESS_FROM);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await raw(path, 'gzip, deflate, br', staff.headers, page);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(plain.body.length / 4);
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(JSON.parse(plain.body.toString()));
    const gz = await raw(path, 'gzip', staff.headers, page);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(gunzipSync(gz.body).toString())).toEqual(JSON.parse(plain.body.toString()));
  });

  it("when a route's envelope is a few KB but under COMPRESS_FROM, then it goes as it is, without Vary, whatever is accepted", async () => {
    const staff = await signIn(api, 'admin');
    // The menu tree of the administrator's role (about 8 KB) and a 10-row page (about 5 KB).
    for (const [path, body] of [
      ['/base/sysmenu/all/menu/1', undefined],
      ['/complain/query/list/', { page: 1, limit: 10 }],
    ] as const) {
      const plain = await raw(path, undefined, staff.headers, body);
      expect(plain.body.length).toBeGreaterThan(1024);
      expect(plain.body.length).toBeLessThan(COMPRESS_FROM);
      const br = await raw(path, 'gzip, deflate, br', staff.headers, body);
      expect(br.headers['content-encoding']).toBeUndefined();
      expect(br.headers.vary).toBeUndefined();
      expect(Number(br.headers['content-length'])).toBe(br.body.length);
      expect(JSON.parse(br.body.toString())).toEqual(JSON.parse(plain.body.toString()));
    }
  });

  it('when an answer is small, then it goes uncompressed', async () => {
    const health = await raw('/health', 'br, gzip');
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(health.body.toString()).code).toBe(200);
  });
});
