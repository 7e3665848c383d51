import { request as httpRequest } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../src/locale-messages';
import { login, spawnGateway, startRealApi, type GatewayProcess } from './kit';

let api: Awaited<ReturnType<typeof startRealApi>>;
let gateway: GatewayProcess | null = null;

beforeAll(async () => {
  api = await startRealApi();
});
afterAll(async () => {
  await api?.cleanup();
});
afterEach(async () => {
  await gateway?.stop();
  gateway = null;
});

interface Answer {
  status: number;
  body: unknown;
}

/** One HTTP call on its own connection, optionally from another loopback address (another client). */
function call(url: string, path: string, headers: Record<string, string> = {}, localAddress?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { headers, localAddress, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: the assertion below says so
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the /api proxy under load', () => {
  it('when one client sends 2,000 calls at once, then each gets an envelope, the gateway stays up and another person is still served', async () => {
    gateway = await spawnGateway({ API_URL: api.url });
    const token = await login(api.url, 'staff', 'staff123');

    const answers = await Promise.all(
      Array.from({ length: 2000 }, (_, i) => call(gateway!.url, `/api/complain/list?page=${i}`)),
    );

    for (const a of answers) {
      expect([200, 401, 404, 503]).toContain(a.status);
      expect(a.body).toMatchObject({ code: a.status });
      if (a.status === 503)
        expect(a.body).toEqual({ code: 503, msg: translate('en', 'errors.gatewayBusy'), data: null });
    }
    expect(gateway.alive()).toBe(true);
    expect(gateway.logs.filter((l) => (l.level as number) >= 50)).toEqual([]);
    const other = await call(gateway.url, '/api/auth/current/user', { authorization: `Bearer ${token}` }, '127.0.0.2');
    expect(other.status).toBe(200);
  });
});
