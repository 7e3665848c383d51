// `npm start` on a PostgreSQL server that is there but lacks the database (issue 17): one line
// naming DATABASE_URL and the fix instead of a 35-line driver dump; exit 1, no gateway.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, repoRoot } from '../support/kit';

describe('npm start on PostgreSQL', () => {
  it('when the database in DATABASE_URL does not exist, then one line says so and how to fix it, exit 1', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    const missing = `pm_missing_${process.pid}_${Date.now()}`;
    url.pathname = `/${missing}`;
    const dir = mkdtempSync(join(tmpdir(), 'start-pg-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      API_PORT: String(await freePort()),
      DATA_DIR: join(dir, 'data'),
      CLIENT_DIST: dir,
      START_QUIET: '1',
      METRICS_PORT: '0',
      API_METRICS_PORT: '0',
      DATABASE_URL: url.toString(),
    };
    delete env.LOG_LEVEL;
    const r = spawnSync(process.execPath, [join(repoRoot, 'scripts/start.mjs')], {
      cwd: repoRoot,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    rmSync(dir, { recursive: true, force: true });
    expect(r.status).toBe(1);
    expect(`${r.stdout}${r.stderr}`.trim().split('\n')).toEqual([
      `DATABASE_URL: database "${missing}" does not exist on ${url.hostname}:${url.port || 5432}: create it (createdb ${missing}) or correct the name in DATABASE_URL`,
    ]);
    const probe = createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(port, () => probe.close(() => resolve()));
    });
  });
});
