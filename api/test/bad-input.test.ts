// Bad input (issue 3, DESIGN §2): malformed JSON, wrong types, huge strings, missing fields and
// odd path values sent to every route answer a 4xx envelope with a message — never a 5xx — and
// the server stays up; unknown routes answer a 404 envelope and oversized bodies 413.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApiRoute } from '../src/http/define-route';
import { allModules } from '../src/server';
import { callerOf, startTestApi, testEngines, type TestApi } from './kit';

const routes: ApiRoute[] = allModules(async () => true).flatMap((m) => m.routes);
// Sign-in and sign-out are fuzzed separately: a fuzzed sign-out would end the fuzzer's session.
const fuzzed = routes.filter((r) => r.path !== '/auth/signOut');

const HUGE = 'x'.repeat(200_000);
const WRONG_VALUES: unknown[] = [
  null,
  true,
  -1,
  1e308,
  'not a number',
  '',
  HUGE,
  [],
  [1, 'a', null],
  { $gt: '' },
  '<script>alert(1)</script>',
  '\u0000',
];
const ODD_PATH_VALUES = [
  'abc',
  '-1',
  '0',
  '1.5',
  '99999999999999999999',
  '%00',
  '..%2F..%2Fetc%2Fpasswd',
  encodeURIComponent('漢字'),
  'null',
];

/** The field names of a route's body schema (an object schema, possibly wrapped). */
function fieldsOf(schema: z.ZodType | undefined): string[] {
  let s: unknown = schema;
  for (let i = 0; i < 5 && s; i++) {
    if (s instanceof z.ZodObject) return Object.keys(s.shape);
    const def = (s as { _zod?: { def?: { innerType?: unknown; in?: unknown; schema?: unknown } } })._zod?.def;
    s = def?.innerType ?? def?.in ?? def?.schema;
  }
  return ['id', 'page', 'limit', 'name'];
}

const fill = (path: string, value: string) => path.replace(/[:*]\w+/g, value);

/** Values that are not numbers, though z.coerce used to turn each into one (issue 14 item 11). */
const NOT_NUMBERS: unknown[] = [true, false, null, [], [5], '0x10', '1e3', ' 12', '', '12abc', { n: 1 }];
/** The same as path and query strings. */
const NOT_NUMBER_STRINGS = ['0x10', '1e3', '%2012', 'true', '%5B5%5D', '', '1.0'];

type JsonSchema = {
  type?: string;
  anyOf?: JsonSchema[];
  pattern?: string;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
};

/** A field that holds a number (or a list of them): every string it accepts is digits only. */
function numberKind(schema: JsonSchema): 'number' | 'list' | null {
  const members = schema.anyOf ?? [schema];
  const numeric = members.some((m) => m.type === 'number' || m.type === 'integer');
  const freeString = members.some((m) => m.type === 'string' && !m.pattern);
  if (numeric && !freeString) return 'number';
  if (schema.type === 'array' && schema.items && numberKind(schema.items) === 'number') return 'list';
  return null;
}

/** The number fields of a request schema, from its JSON schema. */
function numberFields(schema: z.ZodType | undefined): { name: string; kind: 'number' | 'list' }[] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return Object.entries(json.properties ?? {}).flatMap(([name, field]) => {
    const kind = numberKind(field);
    return kind ? [{ name, kind }] : [];
  });
}

describe.each(testEngines())('bad input on %s', (engine) => {
  let api: TestApi;
  let token: string;
  const failures: string[] = [];

  beforeAll(async () => {
    api = await startTestApi(engine);
    token = await api.login('admin', 'admin123');
  });
  afterAll(async () => api?.close());

  /** Sends one request as the administrator (signing in again if a call ended the session). */
  async function send(route: ApiRoute, path: string, body: unknown, raw = false) {
    const go = () => {
      const req = route.method === 'get' ? api.http.get(path) : api.http.post(path);
      req.set('Authorization', `Bearer ${token}`);
      if (route.method === 'get') return req;
      return raw ? req.set('Content-Type', 'application/json').send(body as string) : req.send(body as object);
    };
    let res = await go();
    if (res.status === 401 && route.permission !== 'public') {
      token = await api.login('admin', 'admin123');
      res = await go();
    }
    const where = `${route.method.toUpperCase()} ${path.slice(0, 80)} ${typeof body === 'string' ? body.slice(0, 40) : JSON.stringify(body)?.slice(0, 60)}`;
    if (res.status >= 500) failures.push(`${where} → ${res.status} ${res.text.slice(0, 200)}`);
    else if (res.status >= 400 && (typeof res.body?.msg !== 'string' || !res.body.msg))
      failures.push(`${where} → ${res.status} without a message`);
    return res;
  }

  it('when every route gets malformed JSON, wrong types, huge strings and missing fields, then no answer is a 5xx and each 4xx has a message', async () => {
    for (const route of fuzzed) {
      const path = fill(route.path, '1');
      if (route.method === 'post') {
        await send(route, path, '{"page": 1,', true);
        await send(route, path, '[1, 2, 3]', true);
        await send(route, path, '"just a string"', true);
        await send(route, path, 'null', true);
        await send(route, path, {});
        for (const field of fieldsOf(route.body)) {
          for (const value of WRONG_VALUES) await send(route, path, { [field]: value });
        }
        const all = Object.fromEntries(fieldsOf(route.body).map((f) => [f, HUGE]));
        await send(route, path, all);
      }
      if (/[:*]\w+/.test(route.path)) for (const odd of ODD_PATH_VALUES) await send(route, fill(route.path, odd), {});
      await send(route, `${path}?page=abc&limit=-5&imageUrl=../../etc/passwd&name=${encodeURIComponent('a/../b')}`, {});
    }
    expect(failures).toEqual([]);
    expect((await api.http.get('/health')).status).toBe(200);
  }, 180_000); // every route of the api, a few hundred calls each (issue 18 added about 50 routes)

  it('when a number field, path id or query number gets true, [], null, [5], "0x10" or the like, then every route answers 400', async () => {
    const accepted: string[] = [];
    let checkedFields = 0;
    for (const route of fuzzed) {
      const path = fill(route.path, '1');
      for (const { name, kind } of route.method === 'post' ? numberFields(route.body) : []) {
        checkedFields++;
        for (const value of NOT_NUMBERS) {
          const sent = kind === 'list' ? [value] : value;
          // The schema itself refuses the value (so a 400 is not merely another field missing) …
          const parsed = route.body!.safeParse({ [name]: sent });
          const refusedHere = !parsed.success && parsed.error.issues.some((i) => i.path[0] === name);
          // … and the route answers 400.
          const res = await send(route, path, { [name]: sent });
          if (!refusedHere || res.status !== 400)
            accepted.push(`${route.path} ${name}=${JSON.stringify(sent)} → ${res.status}`);
        }
      }
      for (const { name } of numberFields(route.query)) {
        checkedFields++;
        for (const value of NOT_NUMBER_STRINGS) {
          const res = await send(route, `${path}?${name}=${value}`, {});
          if (res.status !== 400) accepted.push(`${route.path}?${name}=${value} → ${res.status}`);
        }
      }
      if (numberFields(route.params).length > 0) {
        checkedFields++;
        for (const value of NOT_NUMBER_STRINGS.filter(Boolean)) {
          const res = await send(route, fill(route.path, value), {});
          if (res.status !== 400) accepted.push(`${fill(route.path, value)} → ${res.status}`);
        }
      }
    }
    const captcha = await api.http
      .post('/oauth/token')
      .auth('console', 'console-secret')
      .type('form')
      .send({ grant_type: 'password', username: 'admin', password: 'x', captchaId: 'x', captchaX: '0x10' });
    if (captcha.status !== 400) accepted.push(`/oauth/token captchaX=0x10 → ${captcha.status}`);
    expect(checkedFields).toBeGreaterThan(60);
    expect(accepted).toEqual([]);
    expect(failures).toEqual([]);
    // Every route's every number field, one request each: more routes, more time (a busy machine).
  }, 180_000);

  it('when sign-in and sign-out get junk, then 400/401 answers and the server stays up', async () => {
    const tokenRoute = routes.find((r) => r.path === '/oauth/token')!;
    for (const body of [
      {},
      { grant_type: 'password', username: HUGE, password: HUGE },
      { grant_type: ['password'], username: { a: 1 } },
    ]) {
      const res = await api.http.post('/oauth/token').auth('console', 'console-secret').type('form').send(body);
      expect(res.status).toBeLessThan(500);
      expect([400, 401, 428, 429]).toContain(res.status);
    }
    await send(tokenRoute, '/oauth/token', '{"grant_type":', true);
    const signOut = await api.http.post('/auth/signOut').set('Authorization', 'Bearer \u00ff\u00fe').send('{"x":');
    expect(signOut.status).toBeLessThan(500);
    expect(failures).toEqual([]);
  });

  it('when a body is over the limit, then 413 with a message in the asked language', async () => {
    const big = { name: 'y'.repeat(1024 * 1024 + 10) };
    const res = await api.http
      .post('/complain/query/list')
      .set('Authorization', `Bearer ${token}`)
      .set('lang', 'zh-CN')
      .send(big);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 413, msg: expect.stringMatching(/[\u4e00-\u9fff]/) });
  });

  it('when a route does not exist, then a 404 envelope, with or without a token', async () => {
    for (const path of ['/no/such/route', '/complain/query/nothing', '/../../etc/passwd']) {
      const res = await api.http.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 404, msg: expect.any(String), data: null });
    }
    const withToken = await callerOf(api, token).post('/base/nothing', {});
    expect(withToken.body.code).toBe(404);
  });

  it('when the JSON is malformed, then 400 says so', async () => {
    const res = await api.http
      .post('/base/message/list')
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/json')
      .send('{"page":');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
    expect(res.body.msg.length).toBeGreaterThan(3);
  });
});
