// Starts a real api for a test: in-memory PGlite, or — for the PostgreSQL run — a fresh schema
// on TEST_DATABASE_URL that is dropped again on close, so runs never see each other's rows.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import request from 'supertest';
import { startApi, type ApiHandle, type StartApiOptions } from '../../src/server';
import { tokenOf } from './session';

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
}

/** A postgres:// URL whose connections use `schema` as search_path. */
export function withSearchPath(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

/** A fresh schema on TEST_DATABASE_URL: its URL (search_path set) and how to drop it again. */
export async function freshSchema(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const query = async (text: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(text);
    await client.end();
  };
  await query(`create schema ${schema}`);
  return { url: withSearchPath(base, schema), drop: () => query(`drop schema if exists ${schema} cascade`) };
}

/** Starts an api with the demo estate seeded (unless options.seed is false). */
export async function startTestApi(engine: Engine = 'pglite', options: StartApiOptions = {}): Promise<TestApi> {
  const schema = engine === 'postgres' ? await freshSchema() : null;
  const api = await startApi({ logLevel: 'silent', seed: true, databaseUrl: schema?.url, ...options });
  return {
    ...api,
    engine,
    http: request(api.url),
    login: (username, password) => tokenOf(api.url, { username, password }),
    async close() {
      await api.close();
      await schema?.drop();
    },
  };
}
