import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, spawnGateway, startRealApi } from './kit';

let api: Awaited<ReturnType<typeof startRealApi>>;

beforeAll(async () => {
  api = await startRealApi();
});
afterAll(async () => {
  await api?.cleanup();
});

describe("the gateway's access log", () => {
  it('when URLs carry a token, a code or a password, then the log lines show the calls with those redacted', async () => {
    const { token, personId } = await signIn(api.url, 'staff');
    const gateway = await spawnGateway({ API_URL: api.url });
    try {
      await fetch(`${gateway.url}/api/auth/current/user?access_token=${token}&lang=en`);
      await fetch(`${gateway.url}/api/${token}/${personId}`);
      await fetch(`${gateway.url}/api/auth/forget/password?code=735194&password=hunter2secret`);
      await fetch(`${gateway.url}/api/oauth/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from('console:console-secret').toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'password', username: 'staff', password: 'staff123' }).toString(),
      });
    } finally {
      await gateway.stop(); // flushes the buffered log
    }

    const urls = gateway.logs.filter((l) => l.msg === 'request').map((l) => l.url);
    expect(urls).toEqual([
      '/api/auth/current/user?access_token=[redacted]&lang=en',
      `/api/[redacted]/${personId}`,
      '/api/auth/forget/password?code=[redacted]&password=[redacted]',
      '/api/oauth/token',
    ]);
    const text = JSON.stringify(gateway.logs);
    for (const secret of [
      token,
      '735194',
      'hunter2secret',
      'staff123',
      Buffer.from('console:console-secret').toString('base64'),
    ])
      expect(text).not.toContain(secret);
  });
});
