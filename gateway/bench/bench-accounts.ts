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

/** Returns one bearer token per person. */
export async function createBenchAccounts(api: BenchApi, count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) tokens.push(await login(api.url, `bench${i}`, 'bench123'));
  return tokens;
}
