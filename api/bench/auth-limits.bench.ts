// What an anonymous client can do to sign-in and to the public endpoints (issue 14 items 2, 7
// and 9), run by `npm run bench auth`. Starts a real api process (embedded PGlite in a temporary
// DATA_DIR, demo estate) and attacks it from this process the way the security review did:
//  1. guesses one account's password from a new address on every attempt (X-Forwarded-For, as
//     many real clients behind the gateway would look), solving the slider captcha with the small
//     image script below: how many attempts the api evaluates before its first 429, and per second;
//  2. sprays one password over many account names from one address;
//  3. asks for captcha puzzles as fast as it can, from one address and from many: answers/s and
//     the api process's CPU;
//  4. asks for password-reset codes of known and unknown e-mails (mail through a local SMTP
//     server): the median answer time of each, and how often the time alone tells them apart.
// Prints exactly one JSON line on stdout; progress goes to stderr.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { SMTPServer } from 'smtp-server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const RESET_SAMPLES = 50;
const root = fileURLToPath(new URL('../..', import.meta.url));
const log = (msg: string) => process.stderr.write(`[auth bench] ${msg}\n`);
const CLIENT = `Basic ${Buffer.from('console:console-secret').toString('base64')}`;
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

// A local SMTP server that accepts every mail, so the known e-mails' path does real mail work.
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, _session, done) {
    stream.on('data', () => undefined);
    stream.on('end', () => done());
  },
});
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
const smtpPort = (smtp.server.address() as AddressInfo).port;

const dataDir = mkdtempSync(join(tmpdir(), 'pm-auth-bench-'));
const api = spawn(process.execPath, ['--import', 'tsx', 'api/src/main.ts'], {
  cwd: root,
  env: {
    ...process.env,
    API_PORT: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    LOG_LEVEL: 'info',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const port = await new Promise<number>((resolve, reject) => {
  let buffered = '';
  api.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let i = buffered.indexOf('\n'); i >= 0; i = buffered.indexOf('\n')) {
      const line = buffered.slice(0, i);
      buffered = buffered.slice(i + 1);
      if (line.includes('"api listening"')) resolve((JSON.parse(line) as { port: number }).port);
    }
    if (buffered.length > 1 << 20) buffered = '';
  });
  api.once('exit', (code) => reject(new Error(`api exited (${code}) before listening`)));
});
const base = `http://127.0.0.1:${port}`;
log(`api pid ${api.pid} on ${base}`);

/** CPU seconds (user + system) the api process has used so far, from /proc. */
function apiCpuSeconds(): number {
  const fields = readFileSync(`/proc/${api.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Answer {
  status: number;
  body: { code?: number; data?: Record<string, unknown> | null; access_token?: string } | null;
  ms: number;
}

async function call(
  method: 'GET' | 'POST',
  path: string,
  options: { form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const started = performance.now();
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  const ms = performance.now() - started;
  let parsed: Answer['body'] = null;
  try {
    parsed = JSON.parse(text) as Answer['body'];
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed, ms };
}

interface Puzzle {
  captchaId: string;
  background: string;
  piece: string;
  y: number;
  pieceSize: number;
}

const pixels = async (dataUrl: string) =>
  sharp(Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });

/**
 * The script a reviewer wrote: the gap is the piece's own pixels, darkened. For each x, scale the
 * background under the piece to the piece's brightness and keep the x where they differ least.
 */
async function solve(p: Puzzle): Promise<number> {
  const bg = await pixels(p.background);
  const piece = await pixels(p.piece);
  const size = piece.info.width;
  const inset = 5;
  const at = (img: typeof bg, x: number, y: number, c: number) => img.data[(y * img.info.width + x) * 3 + c];
  let pieceSum = 0;
  for (let j = inset; j < size - inset; j++)
    for (let i = inset; i < size - inset; i++) for (let c = 0; c < 3; c++) pieceSum += at(piece, i, j, c);
  let best = 0;
  let bestScore = Infinity;
  for (let x = 0; x + size <= bg.info.width; x++) {
    let sum = 0;
    for (let j = inset; j < size - inset; j++)
      for (let i = inset; i < size - inset; i++) for (let c = 0; c < 3; c++) sum += at(bg, x + i, p.y + j, c);
    const scale = pieceSum / Math.max(1, sum);
    let score = 0;
    for (let j = inset; j < size - inset; j++)
      for (let i = inset; i < size - inset; i++)
        for (let c = 0; c < 3; c++) score += Math.abs(at(bg, x + i, p.y + j, c) * scale - at(piece, i, j, c));
    if (score < bestScore) [bestScore, best] = [score, x];
  }
  return best;
}

/** A password guess with a captcha solved by the script whenever the api asks for one. */
async function guess(username: string, password: string, address: string): Promise<Answer> {
  const headers = { authorization: CLIENT, 'x-forwarded-for': address };
  const form = { grant_type: 'password', username, password };
  let res = await call('POST', '/oauth/token', { form, headers });
  if (res.status !== 428) return res;
  const puzzle = await call('GET', '/captcha/puzzle', { headers: { 'x-forwarded-for': address } });
  if (puzzle.status !== 200) return puzzle;
  const p = puzzle.body?.data as unknown as Puzzle;
  const x = await solve(p);
  res = await call('POST', '/oauth/token', {
    form: { ...form, captchaId: p.captchaId, captchaX: String(x) },
    headers,
  });
  return res;
}

interface Run {
  attempts: number;
  /** Attempts whose password the api checked (answered 401 or 200). */
  evaluated: number;
  evaluatedBeforeFirst429: number;
  evaluatedPerSecond: number;
  /** 428 answers to a captcha the script had solved (the script missed). */
  captchaMisses: number;
  statuses: Record<string, number>;
  foundPassword: boolean;
}

async function attack(next: (i: number) => { username: string; password: string; address: string }): Promise<Run> {
  const run: Run = {
    attempts: 0,
    evaluated: 0,
    evaluatedBeforeFirst429: -1,
    evaluatedPerSecond: 0,
    captchaMisses: 0,
    statuses: {},
    foundPassword: false,
  };
  const started = performance.now();
  for (let i = 0; performance.now() - started < SECONDS * 1000; i++) {
    const attempt = next(i);
    const res = await guess(attempt.username, attempt.password, attempt.address);
    run.attempts++;
    run.statuses[res.status] = (run.statuses[res.status] ?? 0) + 1;
    if (res.status === 401 || res.status === 200) run.evaluated++;
    if (res.status === 200) run.foundPassword = true;
    if (res.status === 428) run.captchaMisses++;
    if (res.status === 429 && run.evaluatedBeforeFirst429 < 0) run.evaluatedBeforeFirst429 = run.evaluated;
  }
  run.evaluatedPerSecond = round(run.evaluated / ((performance.now() - started) / 1000), 2);
  return run;
}

const spoofed = (i: number) => `198.51.${(i >> 8) & 255}.${i & 255}`;
const result: Record<string, unknown> = { bench: 'auth-limits', seconds: SECONDS };

try {
  // 1. One account, a new address for every guess; the right password is the 40th guess.
  log('guessing one account from many addresses …');
  result.oneAccountManyAddresses = await attack((i) => ({
    username: 'staff',
    password: i === 39 ? 'staff123' : `guess-${i}`,
    address: spoofed(i),
  }));

  // 2. Spraying: one address, one password over many names (the demo names among them).
  log('spraying many accounts from one address …');
  const names = ['admin', 'admin2', 'resident1', 'resident2', 'resident3', 'resident4', 'resident5'];
  result.sprayOneAddress = await attack((i) => ({
    username: i < names.length ? names[i] : `user${i}`,
    password: 'password1',
    address: '203.0.113.50',
  }));

  // 3. Captcha puzzles: 8 at a time, from one address, then from a new address each time.
  const hammer = async (label: string, headers: (i: number) => Record<string, string>) => {
    log(`captcha puzzles ${label} …`);
    const statuses: Record<string, number> = {};
    let sent = 0;
    const cpu0 = apiCpuSeconds();
    const started = performance.now();
    const until = started + Math.min(SECONDS, 10) * 1000;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (performance.now() < until) {
          const res = await call('GET', '/captcha/puzzle', { headers: headers(sent++) });
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const answered = Object.values(statuses).reduce((a, b) => a + b, 0);
    return {
      answersPerSecond: round(answered / seconds),
      puzzlesPerSecond: round((statuses[200] ?? 0) / seconds),
      apiCores: round((apiCpuSeconds() - cpu0) / seconds, 2),
      statuses,
    };
  };
  const sample = await call('GET', '/captcha/puzzle', { headers: { 'x-forwarded-for': '192.0.2.1' } });
  const p = sample.body?.data as unknown as Puzzle;
  result.captchaBytes = p ? p.background.length + p.piece.length : null;
  result.captchaOneAddress = await hammer('from one address', () => ({ 'x-forwarded-for': '203.0.113.60' }));
  result.captchaManyAddresses = await hammer('from many addresses', (i) => ({ 'x-forwarded-for': spoofed(i) }));

  // 4. Reset codes: 50 known e-mails (new staff accounts) against 50 unknown ones, interleaved.
  log('reset-code answer times …');
  const token = (
    await call('POST', '/oauth/token', {
      form: { grant_type: 'password', username: 'admin', password: 'admin123' },
      headers: { authorization: CLIENT, 'x-forwarded-for': '192.0.2.9' },
    })
  ).body?.access_token as string;
  const roles = await call('POST', '/base/sysrole/page', {
    json: { page: 1, limit: 100 },
    headers: { authorization: `Bearer ${token}` },
  });
  const staffRole = (roles.body?.data?.list as { roleId: number; roleValue: string }[]).find(
    (r) => r.roleValue === 'STAFF',
  );
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < RESET_SAMPLES; i++) {
    const created = await call('POST', '/account/update', {
      json: {
        username: `timing${i}`,
        password: 'Secret123',
        name: `Timing ${i}`,
        email: `timing${i}@example.com`,
        roleId: staffRole?.roleId,
      },
      headers: { authorization: `Bearer ${token}` },
    });
    if (created.status !== 200) throw new Error(`account ${i}: ${created.status}`);
  }
  for (let i = 0; i < RESET_SAMPLES; i++) {
    const headers = { 'x-forwarded-for': spoofed(1000 + i) };
    known.push(
      (await call('POST', '/account/forget/password', { json: { email: `timing${i}@example.com` }, headers })).ms,
    );
    unknown.push(
      (await call('POST', '/account/forget/password', { json: { email: `nobody${i}@example.com` }, headers })).ms,
    );
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const threshold = (median(known) + median(unknown)) / 2;
  const knownSlower = median(known) >= median(unknown);
  const told =
    known.filter((ms) => ms >= threshold === knownSlower).length +
    unknown.filter((ms) => ms < threshold === knownSlower).length;
  result.resetTiming = {
    knownMedianMs: round(median(known)),
    unknownMedianMs: round(median(unknown)),
    /** Share of answers a threshold halfway between the medians classifies right (50 % = chance). */
    toldApartPercent: round((100 * told) / (known.length + unknown.length)),
  };
} finally {
  api.kill('SIGTERM');
  await new Promise((resolve) => api.once('exit', resolve));
  smtp.close();
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(JSON.stringify(result));
