// Each image's start-up as Docker would run it, simulated without Docker (issue 17): the
// Dockerfile's ENTRYPOINT and CMD, run in the files its last stage copies (laid out in a
// world-readable temporary directory, the image's /app: the unprivileged user reads them wherever
// the checkout lives, issue 33), as root on a fresh root-owned DATA_DIR as a new named volume is,
// or as the unprivileged user directly. `nobody` stands in for the image's `node` user
// (APP_USER), which this machine does not have.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  freePorts,
  imageLayout,
  imageStart,
  spawnService,
  tokenAt,
  type ImageLayout,
  type ServiceProcess,
} from '../support/kit';

const NOBODY = {
  name: 'nobody',
  uid: 65534,
  group: spawnSync('id', ['-gn', 'nobody'], { encoding: 'utf8' }).stdout.trim(),
};

/** A new directory owned by root and closed to everyone else, as Docker creates a volume's mount point. */
function rootOwnedDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'volume-'));
  expect(statSync(dir).uid).toBe(0);
  expect(statSync(dir).mode & 0o077).toBe(0);
  return dir;
}

/** The real user id of a running process. */
const uidOf = (pid: number) => Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
const asNobody = ['setpriv', `--reuid=${NOBODY.uid}`, `--regid=${NOBODY.group}`, '--clear-groups', '--'];

const dirs: string[] = [];
const running: ServiceProcess[] = [];
const images = {} as Record<'api' | 'gateway', ImageLayout>;
let api: ServiceProcess;
let apiUrl: string;

beforeAll(() => {
  // Docker starts an image's entry point as root; so must this simulation.
  expect(process.getuid?.(), 'these tests simulate Docker and must run as root').toBe(0);
  images.api = imageLayout('api');
  images.gateway = imageLayout('gateway');
});
afterAll(async () => {
  for (const p of running) await p.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  for (const image of Object.values(images)) image.remove();
});

describe('the api image', () => {
  it('when started as root on a fresh root-owned volume with the demo seeded, then it runs as the unprivileged user, owns the volume and serves its pictures', async () => {
    const { entrypoint, cmd, env, user } = imageStart('api');
    expect(user).toBeUndefined(); // the entry point drops privileges itself
    expect(entrypoint).toEqual(['docker-entrypoint.sh']);
    expect(env.DATA_DIR).toBe('/data');
    const dataDir = rootOwnedDir();
    dirs.push(dataDir);
    const ports = await freePorts('api');
    api = spawnService(
      'api',
      {
        ...env,
        DATA_DIR: dataDir,
        APP_USER: NOBODY.name,
        API_PORT: String(ports.api),
        API_METRICS_PORT: '0',
        DATABASE_URL: '',
        SEED_DEMO: '1',
      },
      { command: images.api.command([...entrypoint, ...cmd]), spawn: { cwd: images.api.dir } },
    );
    running.push(api);
    await api.waitForLine((l) => l.msg === 'api listening', 120_000);
    apiUrl = `http://127.0.0.1:${ports.api}`;

    // The entry point exec'd the api: the same process, now the unprivileged user's.
    expect(uidOf(api.child.pid!)).toBe(NOBODY.uid);
    expect(statSync(dataDir).uid).toBe(NOBODY.uid);
    const uploads = join(dataDir, 'uploads');
    expect(statSync(uploads).uid).toBe(NOBODY.uid);
    const demoPictures = readdirSync(join(uploads, 'demo'), { recursive: true }).filter((f) =>
      /\.(png|jpe?g)$/.test(String(f)),
    );
    expect(demoPictures.length).toBeGreaterThan(0);

    await tokenAt(apiUrl, ADMIN); // the demo administrator signs in
    const picture = await fetch(`${apiUrl}/upload/files/demo/${String(demoPictures[0]).replaceAll('\\', '/')}`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toMatch(/^image\//);
  });

  it('when started directly as the unprivileged user (docker run --user) on a root-owned volume, then one line says DATA_DIR is not writable and how to fix it, exit 1', async () => {
    const { cmd, env } = imageStart('api');
    const dataDir = rootOwnedDir();
    dirs.push(dataDir);
    const ports = await freePorts('api');
    const r = spawnSync(asNobody[0], [...asNobody.slice(1), ...cmd], {
      cwd: images.api.dir,
      env: {
        ...process.env,
        ...env,
        DATA_DIR: dataDir,
        API_PORT: String(ports.api),
        API_METRICS_PORT: '0',
        DATABASE_URL: '',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(`${r.stdout}${r.stderr}`.trim().split('\n')).toEqual([
      `DATA_DIR ${dataDir} is not writable by this process (uid ${NOBODY.uid}): give the directory to that user (chown -R ${NOBODY.uid} ${dataDir}) or set DATA_DIR to a writable directory`,
    ]);
  });
});

describe('the gateway image', () => {
  it('when started as its unprivileged user, then it serves the console and reaches the api', async () => {
    const { cmd, user, env } = imageStart('gateway');
    expect(user).toBe('node');
    const ports = await freePorts('gateway');
    const gateway = spawnService(
      'gateway',
      { ...env, PORT: String(ports.gateway), API_URL: apiUrl, METRICS_PORT: '0', REDIS_URL: '' },
      { command: [...asNobody, ...cmd], spawn: { cwd: images.gateway.dir } },
    );
    running.push(gateway);
    await gateway.waitForLine((l) => l.msg === 'gateway listening', 60_000);
    expect(uidOf(gateway.child.pid!)).not.toBe(0);
    const url = `http://127.0.0.1:${ports.gateway}`;
    expect((await fetch(`${url}/health`)).status).toBe(200);
    const page = await fetch(`${url}/login`, { headers: { accept: 'text/html' } });
    expect(await page.text()).toContain('id="root"');
  });
});
