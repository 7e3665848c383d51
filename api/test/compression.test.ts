// JSON answers are compressed for browsers that accept it (issue 17): brotli or gzip as the
// request's Accept-Encoding says, with Vary, and small or uncompressible answers as they are.
import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestApi, type TestApi } from './kit';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi('pglite');
});
afterAll(async () => api?.close());

/** The raw answer: headers and the bytes as they travelled. */
function raw(
  path: string,
  acceptEncoding?: string,
  headers: Record<string, string> = {},
): Promise<{ headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(
      `${api.url}${path}`,
      { headers: { ...headers, ...(acceptEncoding && { 'accept-encoding': acceptEncoding }) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      },
    ).on('error', reject);
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

  it("when a route's envelope is a few KB, then it comes in brotli or gzip as accepted, decoding to the same JSON", async () => {
    const staff = await signIn(api, 'admin');
    // A GET answer of some KB: the menu tree of the administrator's role.
    const path = '/base/sysmenu/all/menu/1';
    const plain = await raw(path, undefined, staff.headers);
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await raw(path, 'gzip, deflate, br', staff.headers);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(JSON.parse(plain.body.toString()));
    const gz = await raw(path, 'gzip', staff.headers);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString())).toEqual(JSON.parse(plain.body.toString()));
  });

  it('when an answer is small, then it goes uncompressed', async () => {
    const health = await raw('/health', 'br, gzip');
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(health.body.toString()).code).toBe(200);
  });
});
