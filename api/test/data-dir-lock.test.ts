// One api per embedded DATA_DIR (issue 14 item 8): a second process on the same directory
// refuses to start with one clear line naming it and a non-zero exit, the first keeps running
// and keeps what it acknowledged; once the first is killed with -9 a new process starts at once.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError } from '../src/db/data-dir-lock';
import { openDatabase } from '../src/db/open-database';
import { CLIENT_AUTH } from './kit';

const root = resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  return port;
}

interface ApiProcess {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts `api/src/main.ts` on the embedded database under `dataDir`. */
function launch(dataDir: string, port: number): ApiProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'api/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      API_PORT: String(port),
      API_HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { url: `http://127.0.0.1:${port}`, child, stderr: () => stderr, exited };
}

async function healthy(p: ApiProcess): Promise<void> {
  for (let i = 0; i < 900; i++) {
    if (p.child.exitCode !== null) throw new Error(`api exited with ${p.child.exitCode}: ${p.stderr()}`);
    if (
      await fetch(`${p.url}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('api did not become healthy');
}

async function signIn(url: string, username: string, password: string): Promise<string> {
  const res = await request(url)
    .post('/oauth/token')
    .set('Authorization', CLIENT_AUTH)
    .type('form')
    .send({ grant_type: 'password', username, password });
  expect(res.status).toBe(200);
  return res.body.access_token as string;
}

describe('the embedded DATA_DIR lock', () => {
  const dirs: string[] = [];
  const procs: ApiProcess[] = [];
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'pm-lock-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    for (const p of procs) {
      if (p.child.exitCode === null) p.child.kill('SIGKILL');
      await p.exited;
    }
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

  it('when a second api process starts on a DATA_DIR in use, then it exits non-zero with one line naming it; after kill -9 of the first a new one starts with every acknowledged complaint', async () => {
    const dir = newDir();
    const first = launch(dir, await freePort());
    procs.push(first);
    await healthy(first);
    const resident = await signIn(first.url, 'resident1', 'resident123');
    const houses = (await request(first.url).get('/app/house/list').set('Authorization', `Bearer ${resident}`)).body
      .data;
    const filed: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await request(first.url)
        .post('/app/complain/save')
        .set('Authorization', `Bearer ${resident}`)
        .send({
          name: `Before the crash ${i}`,
          note: 'kept',
          houseType: houses[0].houseType,
          houseId: houses[0].houseId,
        });
      expect(res.status).toBe(200);
      filed.push(res.body.data.complainId);
    }

    const second = launch(dir, await freePort());
    procs.push(second);
    expect(await second.exited).not.toBe(0);
    const lines = second.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(dir);
    expect(lines[0]).toMatch(/in use by another api process \(pid \d+\)/);
    expect((await fetch(`${first.url}/health`)).status).toBe(200);

    first.child.kill('SIGKILL');
    await first.exited;
    const third = launch(dir, await freePort());
    procs.push(third);
    await healthy(third);
    const admin = await signIn(third.url, 'admin', 'admin123');
    for (const id of filed) {
      const res = await request(third.url).post(`/complain/query/id/${id}`).set('Authorization', `Bearer ${admin}`);
      expect(res.status).toBe(200);
      expect(res.body.data.note).toBe('kept');
    }
  }, 120_000);
});
