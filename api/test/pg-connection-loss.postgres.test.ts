// A PostgreSQL restart cuts every connection of the api's pool, including one a request holds
// between two statements of a transaction (issue 35, found by the chaos harness). Such a client
// reports the cut as an 'error' event; without a listener, Node ends the whole api process.
// The check runs in a child process so that an unhandled 'error' shows as its exit code.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSchema } from './kit';

const script = `
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase } from ${JSON.stringify(join(import.meta.dirname, '..', 'src', 'db', 'open-database.ts'))};
const database = await openDatabase({ databaseUrl: process.env.DB_URL });
const admin = new pg.Client({ connectionString: process.env.DB_URL });
await admin.connect();
let failed = false;
try {
  await database.db.transaction(async (tx) => {
    const { rows } = await tx.execute(sql\`select pg_backend_pid() as pid\`);
    // The connection is checked out and idle (between statements) when the server ends it.
    await admin.query('select pg_terminate_backend($1)', [rows[0].pid]);
    await new Promise((r) => setTimeout(r, 500));
    await tx.execute(sql\`select 1\`);
  });
} catch {
  failed = true;
}
const after = await database.ping();
await admin.end();
await database.close();
console.log(JSON.stringify({ failed, after }));
`;

describe('the api pool when PostgreSQL ends a connection', () => {
  let schema: Awaited<ReturnType<typeof freshSchema>>;
  beforeAll(async () => {
    schema = await freshSchema();
  });
  afterAll(async () => {
    await schema?.drop();
  });

  it('when a connection held by a transaction is ended by the server, then the transaction fails and the process goes on', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: join(import.meta.dirname, '..'),
      env: { ...process.env, DB_URL: schema.url },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).not.toContain("Unhandled 'error' event");
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n').pop()!)).toEqual({ failed: true, after: true });
  });
});
