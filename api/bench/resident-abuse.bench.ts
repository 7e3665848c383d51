// What one resident can cost the api (issue 14 items 6 and 7), run by `npm run bench resident`.
// Starts `api/src/main.ts` as its own process on a fresh embedded DATA_DIR (demo seeded), signs
// in as resident1 and
//  - sends 400 wrong invite codes, 20 at a time: how many were answered before the first 429
//    and at what rate;
//  - uploads 30 files of 19 MB at once: the api process's RSS growth (sampled from /proc every
//    20 ms, peak minus the level before) and whether temp files are left behind.
// Prints exactly one JSON line on stdout; progress goes to stderr. Linux only (/proc).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const log = (msg: string) => process.stderr.write(`[resident bench] ${msg}\n`);
const MB = 1024 * 1024;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  return port;
}

function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** Files left under the upload directory that are not stored uploads (temp files). */
function leftovers(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(join(d, e.name), r);
      else if (!/^[a-z][a-z0-9_-]*\/\d{6}\//.test(r)) out.push(r);
    }
  };
  walk(dir, '');
  return out;
}

const dataDir = mkdtempSync(join(tmpdir(), 'pm-bench-resident-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'api/src/main.ts')], {
  cwd: root,
  env: {
    ...process.env,
    API_PORT: String(port),
    API_HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    // The measurement is about memory, not the quota: let all 30 uploads in.
    UPLOAD_QUOTA_MB_PER_HOUR: '100000',
    UPLOAD_QUOTA_MB_PER_DAY: '100000',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
try {
  log('starting the api (embedded database, demo seed) …');
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`api exited with ${child.exitCode}`);
    if (
      await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 1200) throw new Error('api did not become healthy');
    await new Promise((r) => setTimeout(r, 100));
  }
  const tokenRes = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from('console:console-secret').toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'password', username: 'resident1', password: 'resident123' }),
  });
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  const auth = { authorization: `Bearer ${token}` };

  // 1. Invite-code guessing.
  log('400 wrong invite codes, 20 at a time …');
  const statuses: number[] = [];
  const started = performance.now();
  let firstRefusedMs: number | null = null;
  for (let batch = 0; batch < 20; batch++) {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${url}/app/personhouse/join`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ inviteCode: `WRONG${batch}x${i}`, identity: 2 }),
        }).then((r) => r.status),
      ),
    );
    statuses.push(...answers);
    if (firstRefusedMs === null && answers.includes(429)) firstRefusedMs = performance.now() - started;
  }
  const guessSeconds = (performance.now() - started) / 1000;
  const firstRefused = statuses.indexOf(429);
  const guessesBefore429 = firstRefused < 0 ? statuses.length : firstRefused;

  // 2. 30 concurrent 19 MB uploads.
  log('30 concurrent uploads of 19 MB …');
  const file = new Blob([Buffer.alloc(19 * MB, 'a')], { type: 'text/plain' });
  await new Promise((r) => setTimeout(r, 1000));
  const baseline = rssBytes(child.pid!);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(child.pid!))), 20);
  const uploadStarted = performance.now();
  const uploads = await Promise.all(
    Array.from({ length: 30 }, () => {
      const form = new FormData();
      form.append('file', file, 'notes.txt');
      return fetch(`${url}/upload/uploadfile/chat`, { method: 'POST', headers: auth, body: form }).then(
        (r) => r.status,
      );
    }),
  );
  const uploadSeconds = (performance.now() - uploadStarted) / 1000;
  await new Promise((r) => setTimeout(r, 200));
  clearInterval(sampler);

  console.log(
    JSON.stringify({
      bench: 'resident-abuse',
      joinGuesses: statuses.length,
      joinGuessesBefore429: guessesBefore429,
      join429s: statuses.filter((s) => s === 429).length,
      joinGuessesPerSecond: Math.round(statuses.length / guessSeconds),
      joinFirst429AfterMs: firstRefusedMs === null ? null : Math.round(firstRefusedMs),
      uploads: uploads.length,
      uploadsOk: uploads.filter((s) => s === 200).length,
      uploadStatuses: [...new Set(uploads)],
      uploadSeconds: Math.round(uploadSeconds * 10) / 10,
      rssBeforeMb: Math.round(baseline / MB),
      rssPeakMb: Math.round(peak / MB),
      rssGrowthMb: Math.round((peak - baseline) / MB),
      tempFilesLeft: leftovers(join(dataDir, 'uploads')).length,
    }),
  );
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  rmSync(dataDir, { recursive: true, force: true });
}
