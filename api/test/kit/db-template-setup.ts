// globalSetup of the api and gateway projects (vitest.config.ts): a directory for this run's
// database templates (db-template.ts), removed after the run with the PostgreSQL databases the
// run made (templates, and copies a killed test left behind).
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { renewIfUsed, runTag, templateEngines } from './db-template';

/** One set of templates per vitest process, shared by the api and gateway projects (each runs this setup). */
interface Shared {
  dir: string;
  users: number;
  ready: Promise<void>;
  stop(): Promise<void>;
}
const key = Symbol.for('pm.test.dbTemplates');
const holder = globalThis as unknown as Record<symbol, Shared | undefined>;

function start(): Shared {
  // Its hex suffix tags the run's PostgreSQL databases (db-template.ts runTag).
  const dir = join(tmpdir(), `pm-test-templates-${randomBytes(5).toString('hex')}`);
  mkdirSync(dir);
  // Built before the first file and renewed in the background (in this, vitest's main process), so
  // a test's hook never waits for a build; see db-template.ts for the ages.
  // PM_TEST_TEMPLATES=0: every test api migrates and seeds its own database, as before the templates.
  const off = process.env.PM_TEST_TEMPLATES === '0';
  const renew = async () => {
    if (off) return;
    for (const engine of templateEngines()) await renewIfUsed(engine, dir);
  };
  let renewing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    renewing = renewing
      .then(renew)
      .catch((err: Error) => console.warn(`db templates: renewing failed: ${err.message}`));
  }, 30_000);
  timer.unref();
  return {
    dir,
    users: 0,
    ready: renew(),
    async stop() {
      clearInterval(timer);
      await renewing;
      rmSync(dir, { recursive: true, force: true });
      await dropDatabases(runTag(dir));
    },
  };
}

async function dropDatabases(tag: string): Promise<void> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `select datname as name from pg_database where datname like 'pm\\_tmpl\\_' || $1 || '\\_%' or datname like 'pm\\_test\\_' || $1 || '\\_%'`,
      [tag],
    );
    for (const { name } of rows) await client.query(`drop database if exists ${name} with (force)`);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const shared = (holder[key] ??= start());
  shared.users++;
  project.provide('pmTestTemplates', shared.dir);
  await shared.ready;
  return async () => {
    if (--shared.users > 0) return;
    holder[key] = undefined;
    await shared.stop();
  };
}
