import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayHandle } from '../src/server';
import { startRealApi, startTestGateway } from './kit';

// The console sends no client secret (it would be readable in its JavaScript): the gateway adds
// the OAuth client's credentials from its own environment to /api/oauth/token (issue 17).
const SECRET = 'a-real-secret-from-the-environment';
let api: Awaited<ReturnType<typeof startRealApi>>;
let gateway: GatewayHandle;

beforeAll(async () => {
  api = await startRealApi({ oauthClientSecret: SECRET });
  gateway = await startTestGateway(api, { oauthClient: { id: 'console', secret: SECRET } });
});
afterAll(async () => {
  await gateway?.close();
  await api?.cleanup();
});

/** The sign-in call as the console's auth-api.ts makes it, with extra headers. */
function consoleSignIn(baseUrl: string, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'en', ...headers },
    body: new URLSearchParams({ grant_type: 'password', username: 'staff', password: 'staff123' }).toString(),
  });
}
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('sign-in through the gateway with a non-default OAuth client secret', () => {
  it('when the console signs in without client credentials, then the gateway adds them and a token comes back', async () => {
    const res = await consoleSignIn(`${gateway.url}/api`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token?: string; token_type?: string };
    expect(body.access_token).toMatch(/\S{20,}/);
    expect(body.token_type).toMatch(/bearer/i);
  });

  it('when a stale bearer token rides along, then it is replaced by the client credentials and sign-in works', async () => {
    const res = await consoleSignIn(`${gateway.url}/api`, { authorization: 'Bearer some-old-token' });
    expect(res.status).toBe(200);
  });

  it('when a caller sends its own client credentials, then they are kept: the right ones sign in, a wrong secret is refused', async () => {
    expect((await consoleSignIn(`${gateway.url}/api`, { authorization: basic('console', SECRET) })).status).toBe(200);
    const wrong = await consoleSignIn(`${gateway.url}/api`, { authorization: basic('console', 'console-secret') });
    expect(wrong.status).toBe(401);
  });

  it('when the api is called directly without client credentials, then it still refuses (only the gateway adds them)', async () => {
    expect((await consoleSignIn(api.url)).status).toBe(401);
  });
});
