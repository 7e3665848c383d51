// The hot calls answered without express (issue 34, api/src/http/fast-path.ts) keep every rule
// of the express path: the token (a revoked one refused at once), the declared permission, the
// request schemas, a 404 and other error envelopes in the caller's language, the request id,
// the access log line and the duration metric, the compression rules and the body limit; what
// the fast path is not sure about (a trailing slash, a body that is not plain JSON) goes to
// express, and answers the same.
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ComplainListSchema } from '@pm/shared';
import { FAST_ROUTES, FastPath } from '../src/http/fast-path';
import { COMPRESS_FROM } from '../src/http/write-envelope';
import { allModules } from '../src/server';
import { roleWith, signIn, staffWithRole, startTestApi, testEngines, type TestApi } from './kit';

interface Envelope {
  code: number;
  msg: string;
  data: { list: unknown[] } | null;
}

/** A call as it travels: status, headers, and the body's bytes (decompressed when brotli). */
function raw(
  api: TestApi,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: number; json: Envelope }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${api.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const text = (res.headers['content-encoding'] === 'br' ? brotliDecompressSync(bytes) : bytes).toString();
        resolve({ status: res.statusCode!, headers: res.headers, bytes: bytes.length, json: JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Each engine's run of the list test sends a body of its own. */
let listRound = 0;

/** A call's status and the answer's bytes as they came (not decoded). */
function rawBytes(
  api: TestApi,
  method: 'POST',
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${api.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the routes of the fast path', () => {
  it('when the api starts, then every route listed as fast is a declared route that answers an envelope', () => {
    const routes = allModules(async () => true).flatMap((m) => m.routes);
    for (const key of FAST_ROUTES) {
      const route = routes.find((r) => r.key === key);
      expect(route, key).toBeDefined();
      expect(route!.answer, key).not.toBe('raw');
    }
  });
});

describe.each(testEngines())('the fast path on %s', (engine) => {
  let api: TestApi;
  const lines: string[] = [];

  beforeAll(async () => {
    api = await startTestApi(engine, {
      logLevel: 'info',
      logDestination: { write: (text: string) => lines.push(text) },
    });
  });
  afterAll(async () => api?.close());

  const requestLines = () =>
    lines
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'request');

  it('when a hot call is made, then it answers as express does, with the id, its length, a log line and its metric', async () => {
    const admin = await signIn(api, 'admin');
    const auth = { authorization: `Bearer ${admin.token}` };
    const fast = await raw(api, 'GET', '/auth/current/user', { ...auth, 'x-request-id': 'fast-4711' });
    // A trailing slash is not the fast path's: express answers it.
    const slow = await raw(api, 'GET', '/auth/current/user/', auth);
    expect(fast.status).toBe(200);
    expect(fast.json).toEqual(slow.json);
    expect(fast.headers['x-request-id']).toBe('fast-4711');
    expect(fast.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(fast.headers['content-length'])).toBe(fast.bytes);
    expect(Object.keys(fast.headers).sort()).toEqual(Object.keys(slow.headers).sort());

    await new Promise((r) => setTimeout(r, 50));
    expect(requestLines().find((l) => l.reqId === 'fast-4711')).toMatchObject({
      method: 'GET',
      url: '/auth/current/user',
      status: 200,
      service: 'api',
    });
    const series = (await api.metrics.httpDuration.get()).values.find(
      (v) =>
        v.labels.route === '/auth/current/user' &&
        String(v.labels.status) === '200' &&
        v.metricName?.endsWith('_count'),
    );
    expect(series?.value).toBeGreaterThanOrEqual(1);
  });

  it('when a 10-row list page is asked for in brotli, then it comes as it is: under COMPRESS_FROM compression does not pay', async () => {
    const admin = await signIn(api, 'admin');
    const headers = {
      authorization: `Bearer ${admin.token}`,
      'content-type': 'application/json',
      'accept-encoding': 'gzip, deflate, br',
    };
    const page = await raw(api, 'POST', '/complain/query/list', headers, JSON.stringify({ page: 1, limit: 10 }));
    expect(page.status).toBe(200);
    expect(page.json.data?.list.length).toBe(10);
    expect(page.bytes).toBeGreaterThan(1024);
    expect(page.bytes).toBeLessThan(COMPRESS_FROM);
    expect(page.headers['content-encoding']).toBeUndefined();
    expect(page.headers.vary).toBeUndefined();
    expect(Number(page.headers['content-length'])).toBe(page.bytes);
  });

  it('when a list page over COMPRESS_FROM is asked for in brotli, then it comes compressed with Vary, decoding to what express answers', async () => {
    const admin = await signIn(api, 'admin');
    const headers = {
      authorization: `Bearer ${admin.token}`,
      'content-type': 'application/json',
      'accept-encoding': 'gzip, deflate, br',
    };
    const body = JSON.stringify({ page: 1, limit: 30 });
    const plain = await raw(api, 'POST', '/complain/query/list', { ...headers, 'accept-encoding': 'identity' }, body);
    expect(plain.bytes).toBeGreaterThan(COMPRESS_FROM);
    const fast = await raw(api, 'POST', '/complain/query/list', headers, body);
    expect(fast.json).toEqual(plain.json);
    expect(fast.bytes).toBeLessThan(plain.bytes / 4);
    const slow = await raw(
      api,
      'POST',
      '/complain/query/list',
      { ...headers, 'content-type': 'application/json; charset=latin1' },
      body,
    );
    expect(fast.status).toBe(200);
    expect(fast.headers['content-encoding']).toBe('br');
    expect(fast.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(fast.headers['content-length'])).toBe(fast.bytes);
    expect(fast.json.data?.list.length).toBeGreaterThan(0);
    // express refuses a charset it cannot read; the fast path left it to express.
    expect(slow.status).toBe(415);
  });

  it('when the token is missing, unknown or signed out, then 401 at once', async () => {
    expect((await raw(api, 'GET', '/realtime/counters')).status).toBe(401);
    const unknown = await raw(api, 'GET', '/realtime/counters', { authorization: 'Bearer nope.nope' });
    expect(unknown.status).toBe(401);
    expect(unknown.json.code).toBe(401);
    const staff = await signIn(api, 'staff');
    const auth = { authorization: `Bearer ${staff.token}` };
    expect((await raw(api, 'GET', '/realtime/counters', auth)).status).toBe(200);
    expect((await staff.post('/auth/signOut')).status).toBe(200);
    expect((await raw(api, 'GET', '/realtime/counters', auth)).status).toBe(401);
    expect(
      (await raw(api, 'POST', '/complain/query/list', { ...auth, 'content-type': 'application/json' }, '{}')).status,
    ).toBe(401);
  });

  it("when a role lacks the permission, then 403 in the caller's language", async () => {
    const admin = await signIn(api, 'admin');
    const roleId = await roleWith(admin, (p) => p.startsWith('eventorder:'));
    const staff = await staffWithRole(api, admin, roleId);
    const headers = { authorization: `Bearer ${staff.token}`, 'content-type': 'application/json', lang: 'zh-CN' };
    const refused = await raw(api, 'POST', '/complain/query/list', headers, JSON.stringify({ page: 1, limit: 10 }));
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe(403);
    const english = await raw(api, 'POST', '/complain/query/list', { ...headers, lang: 'en' }, '{"page":1,"limit":10}');
    expect(refused.json.msg).not.toBe(english.json.msg);
    expect((await raw(api, 'POST', '/eventOrder/query/list', headers, '{"page":1,"limit":10}')).status).toBe(200);
  });

  it('when a list page is asked for again with the same body, then the fast path answers each call, the same bytes as the first, its body read once', async () => {
    const admin = await signIn(api, 'admin');
    const headers = { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' };
    // A text no earlier call (nor the other engine's run of this file) sent.
    const body = `{"page":1,"limit":${10 + listRound++},"complainStatus":1}`;
    const answered = vi.spyOn(FastPath.prototype, 'answer');
    const read = vi.spyOn(ComplainListSchema, 'safeParse');
    try {
      const first = await rawBytes(api, 'POST', '/complain/query/list', headers, body);
      const second = await rawBytes(api, 'POST', '/complain/query/list', headers, body);
      const third = await rawBytes(api, 'POST', '/complain/query/list', headers, body);
      expect(first.status).toBe(200);
      expect(second.bytes.equals(first.bytes)).toBe(true);
      expect(third.bytes.equals(first.bytes)).toBe(true);
      // Each call answered by the fast path (false: left to express).
      expect(answered.mock.results.map((r) => r.value)).toEqual([true, true, true]);
      // Read by its schema once; the same text again is the remembered read.
      expect(read).toHaveBeenCalledTimes(1);
      // Another body is read; a wrong one is a 400 every time (never remembered).
      expect((await rawBytes(api, 'POST', '/complain/query/list', headers, '{"page":2,"limit":10}')).status).toBe(200);
      for (let i = 0; i < 2; i++)
        expect((await rawBytes(api, 'POST', '/complain/query/list', headers, '{"page":1,"limit":"x"}')).status).toBe(
          400,
        );
    } finally {
      answered.mockRestore();
      read.mockRestore();
    }
  });

  it('when a record is not there, a path id or a body is wrong, then 404 or 400 envelopes as express answers them', async () => {
    const admin = await signIn(api, 'admin');
    const headers = {
      authorization: `Bearer ${admin.token}`,
      'content-type': 'application/json',
      'x-request-id': 'fast-404',
    };
    const missing = await raw(api, 'POST', '/complain/query/id/99999999', headers, '{}');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ code: 404, data: null });
    expect(missing.headers['x-request-id']).toBe('fast-404');
    expect((await raw(api, 'POST', '/complain/query/id/abc', headers, '{}')).status).toBe(400);
    const malformed = await raw(api, 'POST', '/complain/query/list', headers, '{"page":');
    expect(malformed.status).toBe(400);
    expect(malformed.json.code).toBe(400);
    // body-parser's strict JSON: a bare string is malformed too.
    expect((await raw(api, 'POST', '/complain/query/list', headers, '"page"')).status).toBe(400);
    expect((await raw(api, 'POST', '/complain/query/list', headers, '{"page":0,"limit":10}')).status).toBe(400);
    // An empty body is {}: the list's defaults.
    expect((await raw(api, 'POST', '/complain/query/list', { ...headers, 'content-length': '0' }, '')).status).toBe(
      200,
    );
  });

  it('when a body is over the limit, then express refuses it with 413 as before', async () => {
    const admin = await signIn(api, 'admin');
    const big = JSON.stringify({ page: 1, limit: 10, keyword: 'x'.repeat(1024 * 1024 + 10) });
    const res = await raw(
      api,
      'POST',
      '/complain/query/list',
      { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      big,
    );
    expect(res.status).toBe(413);
    expect(res.json.code).toBe(413);
  });
});
