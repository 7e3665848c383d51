// One api per embedded DATA_DIR (issue 14 item 8): a second process on the same directory
// refuses to start with one clear line naming it and a non-zero exit, the first keeps running
// and keeps what it acknowledged; once the first is killed with -9 a new process starts at once.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError } from '../src/db/data-dir-lock';
import { openDatabase } from '../src/db/open-database';
import { signIn, signInResident, spawnApi, type ApiProcess } from './kit';

/** Starts the api process on the embedded database under `dataDir`. */
const launch = (dataDir: string) => spawnApi({ DATABASE_URL: '', DATA_DIR: dataDir });

describe('the embedded DATA_DIR lock', () => {
  const dirs: string[] = [];
  const procs: ApiProcess[] = [];
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'pm-lock-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    for (const p of procs) await p.stop('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('when the directory is open in this process, then a second open is refused until the first closes', async () => {
    const dir = newDir();
    const first = await openDatabase({ dataDir: dir });
    try {
      const second = openDatabase({ dataDir: dir });
      await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
      await expect(second).rejects.toThrow(dir);
    } finally {
      await first.close();
    }
    const again = await openDatabase({ dataDir: dir });
    expect(await again.ping()).toBe(true);
    await again.close();
  }, 60_000);

  it('when the lock is released in a process with nothing else to wait on, then the process waits for it and runs on after', async () => {
    // The helper is unref'd while held; waiting for its exit must keep the process alive, or the
    // process ends in the middle of `await release()` with exit code 0 (the gateway bench's lost line).
    const dir = newDir();
    const module = pathToFileURL(resolve(import.meta.dirname, '../src/db/data-dir-lock.ts')).href;
    const script = `const { lockDataDir } = await import(${JSON.stringify(module)});
      const lock = await lockDataDir(${JSON.stringify(dir)});
      await lock.release();
      console.log('after release');`;
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      script,
    ]);
    expect(stdout.trim()).toBe('after release');
  }, 60_000);

  it('when a second api process starts on a DATA_DIR in use, then it exits non-zero with one line naming it; after kill -9 of the first a new one starts with every acknowledged complaint', async () => {
    const dir = newDir();
    const first = await launch(dir);
    procs.push(first);
    await first.healthy();
    const resident = await signInResident(first, 'resident1');
    const filed: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await resident.post('/app/complain/save', {
        name: `Before the crash ${i}`,
        note: 'kept',
        ...resident.house,
      });
      expect(res.status).toBe(200);
      filed.push(res.body.data.complainId);
    }

    const second = await launch(dir);
    procs.push(second);
    expect(await second.exited).not.toBe(0);
    const lines = second.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(dir);
    expect(lines[0]).toMatch(/in use by another api process \(pid \d+\)/);
    expect((await fetch(`${first.url}/health`)).status).toBe(200);

    first.child.kill('SIGKILL');
    await first.exited;
    const third = await launch(dir);
    procs.push(third);
    await third.healthy();
    const admin = await signIn(third, 'admin');
    for (const id of filed) {
      const res = await admin.post(`/complain/query/id/${id}`);
      expect(res.status).toBe(200);
      expect(res.body.data.note).toBe('kept');
    }
  }, 120_000);
});
