// No stranger can lock staff out (issue 35), through the gateway as browsers reach the api: the
// gateway tells the api each browser's real source address (client sockets bound to 127.0.0.x,
// no X-Forwarded-For of the client's own) and passes the known-device cookie both ways. Thirty
// failures from a management office's shared address refuse browsers that never signed in there;
// a browser that did keeps signing in.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayHandle } from '../src/server';
import { startRealApi, startTestGateway } from './kit';

let api: Awaited<ReturnType<typeof startRealApi>>;
let gateway: GatewayHandle;

beforeAll(async () => {
  api = await startRealApi();
  gateway = await startTestGateway(api);
});
afterAll(async () => {
  await gateway?.close();
  await api?.cleanup();
});

/** The console's sign-in call (no client credentials: the gateway adds them), from source address `from`. */
function signInFrom(
  from: string,
  username: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; msg: string; cookie: string | null }> {
  const url = new URL('/api/oauth/token', gateway.url);
  const body = new URLSearchParams({ grant_type: 'password', username, password }).toString();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: from,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const setCookie = res.headers['set-cookie']?.[0];
          resolve({
            status: res.statusCode ?? 0,
            msg: text.startsWith('{') ? String((JSON.parse(text) as { msg?: string }).msg ?? '') : '',
            cookie: setCookie ? setCookie.split(';')[0] : null,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('known devices through the gateway', () => {
  it('when one address failed 30 times, then a browser that signed in there before still signs in and one that never did gets 429 in its language', async () => {
    const office = '127.0.0.70';
    const known = await signInFrom(office, 'staff', 'staff123');
    expect(known.status).toBe(200);
    expect(known.cookie).toMatch(/^pm_device_\d+=/);
    // A client's own X-Forwarded-For is replaced by its real address: it cannot dodge the count.
    for (let i = 0; i < 30; i++) {
      const guess = await signInFrom(office, `nobody-${i}`, 'password1', { 'x-forwarded-for': `203.0.113.${i}` });
      expect(guess.status).toBe(401);
    }
    const stranger = await signInFrom(office, 'admin', 'admin123', { lang: 'zh-TW' });
    expect(stranger.status).toBe(429);
    expect(stranger.msg).toMatch(/[\u4e00-\u9fff]/);
    const again = await signInFrom(office, 'staff', 'staff123', { cookie: known.cookie! });
    expect(again.status).toBe(200);
    // Another address is not affected.
    expect((await signInFrom('127.0.0.71', 'admin', 'admin123')).status).toBe(200);
  });
});
