// Starts a real api for a test: in-memory PGlite, or — for the PostgreSQL run — a fresh schema
// on TEST_DATABASE_URL that is dropped again on close, so runs never see each other's rows.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import request from 'supertest';
import { startApi, type ApiHandle, type StartApiOptions } from '../src/server';

export type Engine = 'pglite' | 'postgres';

/** The engines a suite runs on: PGlite always, PostgreSQL too when TEST_DATABASE_URL is set. */
export function testEngines(): Engine[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestApi extends ApiHandle {
  engine: Engine;
  /** supertest agent on the api's URL. */
  http: ReturnType<typeof request>;
  /** Signs in through POST /oauth/token and returns the bearer token (throws unless 200). */
  login(username: string, password: string): Promise<string>;
  /** Signs in and also answers the account's person id (from /auth/current/user). */
  signIn(username: string, password: string): Promise<{ token: string; personId: number }>;
}

export const CLIENT_AUTH = `Basic ${Buffer.from('console:console-secret').toString('base64')}`;

/** A postgres:// URL whose connections use `schema` as search_path. */
export function withSearchPath(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

/** Starts an api with the demo estate seeded (unless options.seed is false). */
export async function startTestApi(engine: Engine = 'pglite', options: StartApiOptions = {}): Promise<TestApi> {
  let dropSchema: (() => Promise<void>) | null = null;
  let databaseUrl: string | undefined;
  if (engine === 'postgres') {
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error('TEST_DATABASE_URL is not set');
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    databaseUrl = withSearchPath(base, schema);
    dropSchema = async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    };
  }
  const api = await startApi({ logLevel: 'silent', seed: true, databaseUrl, ...options });
  const http = request(api.url);
  const login = async (username: string, password: string): Promise<string> => {
    const res = await request(api.url)
      .post('/oauth/token')
      .set('Authorization', CLIENT_AUTH)
      .type('form')
      .send({ grant_type: 'password', username, password });
    if (res.status !== 200) throw new Error(`login ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.access_token as string;
  };
  return {
    ...api,
    engine,
    http,
    login,
    async signIn(username, password) {
      const token = await login(username, password);
      const me = await http.get('/auth/current/user').set('Authorization', `Bearer ${token}`);
      return { token, personId: me.body.data.accountInfo.personId as number };
    },
    async close() {
      await api.close();
      await dropSchema?.();
    },
  };
}
