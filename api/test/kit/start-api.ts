// Starts a real api for a test: in-memory PGlite, or — for the PostgreSQL run — a database of its
// own on TEST_DATABASE_URL's server (a fresh schema when it asks for no demo) that is dropped
// again on close, so runs never see each other's rows. With the demo seeded (the default) the
// database is a copy of the run's migrated and seeded template (db-template.ts).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import request from 'supertest';
import { startApi, type ApiHandle, type StartApiOptions } from '../../src/server';
import { pgliteTemplate, postgresFromTemplate, templateDir } from './db-template';
import { tokenOf } from './session';

export type Engine = 'pglite' | 'postgres';

/** The engines a suite runs on: PGlite always, PostgreSQL too when TEST_DATABASE_URL is set. */
export function testEngines(): Engine[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestApi extends ApiHandle {
  engine: Engine;
  /** PostgreSQL: the URL of the api's own database or schema (for a second client of the same rows). */
  databaseUrl?: string;
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

export interface TestApiOptions extends StartApiOptions {
  /**
   * Seed the demo now instead of copying the run's template (made at most a few minutes ago, the
   * same day in Hong Kong): for a test whose expectations depend on the exact moment of the seed.
   */
  freshSeed?: boolean;
}

/**
 * Starts an api with the demo estate seeded (unless options.seed is false). With the seed and no
 * database option of its own it starts from a copy of the run's template (db-template.ts).
 */
export async function startTestApi(engine: Engine = 'pglite', options: TestApiOptions = {}): Promise<TestApi> {
  const { freshSeed, ...startOptions } = options;
  const fromTemplate =
    startOptions.seed !== false &&
    !freshSeed &&
    !startOptions.databaseUrl &&
    !startOptions.dataDir &&
    !startOptions.loadDataDir;
  const dir = fromTemplate ? await templateDir() : null;
  const database = engine === 'postgres' ? (dir ? await postgresFromTemplate(dir) : await freshSchema()) : null;
  const loadDataDir = engine === 'pglite' && dir ? await pgliteTemplate(dir) : undefined;
  let api: ApiHandle;
  try {
    api = await startApi({
      logLevel: 'silent',
      seed: true,
      databaseUrl: database?.url,
      ...(loadDataDir && { loadDataDir }),
      ...startOptions,
    });
  } catch (err) {
    await database?.drop();
    throw err;
  }
  return {
    ...api,
    engine,
    databaseUrl: startOptions.databaseUrl ?? database?.url,
    http: request(api.url),
    login: (username, password) => tokenOf(api.url, { username, password }),
    async close() {
      await api.close();
      await database?.drop();
    },
  };
}
