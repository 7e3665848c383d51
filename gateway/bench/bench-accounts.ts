// Creates the bench's persons: one signed-in account each (one upstream per person).
export interface BenchApi {
  url: string;
  realtime: {
    publish(personIds: number[], message: Record<string, unknown>): void | Promise<void>;
    connectionCount(personId?: number): number;
  };
  close(): Promise<void>;
}

async function login(url: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('console:console-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`login ${username} failed (${res.status}): ${JSON.stringify(body)}`);
  return body.access_token;
}

async function call<T>(url: string, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.json()) as { code: number; msg: string; data: T };
  if (res.status !== 200) throw new Error(`${method} ${path} failed (${res.status}): ${answer.msg}`);
  return answer.data;
}

/**
 * Creates `count` staff accounts (bench0 … with the demo administrator's role, so every topic
 * is theirs) through the api's own account call, signs each in, and returns one bearer token per person.
 */
export async function createBenchAccounts(api: BenchApi, count: number): Promise<string[]> {
  const admin = await login(api.url, 'admin', 'admin123');
  const me = await call<{ accountInfo: { accId: number } }>(api.url, admin, 'GET', '/auth/current/user');
  const info = await call<{ role: { roleId: number } }>(api.url, admin, 'GET', `/account/info/${me.accountInfo.accId}`);
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const username = `bench${i}`;
    await call(api.url, admin, 'POST', '/account/update', {
      username,
      password: 'bench123',
      name: `Bench ${i}`,
      roleId: info.role.roleId,
    });
    tokens.push(await login(api.url, username, 'bench123'));
  }
  return tokens;
}
