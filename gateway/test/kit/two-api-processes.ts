// Two api processes (api/src/main.ts) on one PostgreSQL database, as docker-compose.yml runs them:
// the scale-out tests of the gateway (access changes across gateways, failover between apis) stand
// on this. Each run gets its own random schema of TEST_DATABASE_URL and its own DATA_DIRs.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { apiProcess, type ApiProcess } from './support';

export interface TwoApiProcesses {
  apis: [ApiProcess, ApiProcess];
  /** Stops both, drops the schema and removes the DATA_DIRs. */
  stop(): Promise<void>;
}

async function onBase(query: string): Promise<void> {
  const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL as string });
  await c.connect();
  await c.query(query);
  await c.end();
}

/**
 * Starts two api processes on a new schema of TEST_DATABASE_URL, one after the other: the first
 * migrates and seeds the demo, the second joins the same database. `name` prefixes their DATA_DIRs.
 */
export async function startTwoApiProcesses(name: string): Promise<TwoApiProcesses> {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const dataDirs = [mkdtempSync(join(tmpdir(), `${name}-a-`)), mkdtempSync(join(tmpdir(), `${name}-b-`))];
  const started: ApiProcess[] = [];
  const stop = async () => {
    for (const a of started) await a.stop();
    await onBase(`drop schema if exists ${schema} cascade`);
    for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
  };
  try {
    await onBase(`create schema ${schema}`);
    const url = new URL(process.env.TEST_DATABASE_URL as string);
    url.searchParams.set('options', `-c search_path=${schema}`);
    for (const [i, seed] of ['1', '0'].entries()) {
      const api = await apiProcess({ DATA_DIR: dataDirs[i], DATABASE_URL: url.toString(), SEED_DEMO: seed });
      started.push(api);
      await api.start();
    }
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
  return { apis: started as [ApiProcess, ApiProcess], stop };
}
