// The api process: reads the environment, starts the api and stops it cleanly on SIGTERM/SIGINT.
import { resolve } from 'node:path';
import { DataDirLockedError } from './db/data-dir-lock';
import { retentionFromEnv } from './db/retention';
import { firstAdminProblem, type FirstAdmin } from './seed/first-admin';
import { startApi, type ApiHandle } from './server';
import { dataDirProblem, databaseUrlProblem, startUpProblem } from './start-up-problems';

const env = process.env;

/** A start-up failure: one line naming the setting and the fix, exit code 1, nothing left running. */
function refuse(line: string): never {
  console.error(line);
  process.exit(1);
}

/** A positive number of megabytes from the environment; a wrong value stops the start with one clear line. */
function megabytes(name: string): number | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`${name} must be a positive number of megabytes, not "${raw}"`);
    process.exit(1);
  }
  return value;
}

/** ADMIN_USERNAME / ADMIN_PASSWORD (both or neither): the first administrator of a database without the demo. */
function firstAdmin(): FirstAdmin | undefined {
  if (!env.ADMIN_USERNAME && !env.ADMIN_PASSWORD) return undefined;
  const admin: FirstAdmin = {
    username: env.ADMIN_USERNAME ?? '',
    password: env.ADMIN_PASSWORD ?? '',
    email: env.ADMIN_EMAIL || undefined,
    companyName: env.ADMIN_COMPANY_NAME || undefined,
    estateName: env.ADMIN_ESTATE_NAME || undefined,
    timeZone: env.ADMIN_TIME_ZONE || undefined,
  };
  const problem = firstAdminProblem(admin);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  return admin;
}

// Set once started; the DATA_DIR lock may be lost (and stop() called) even during the start.
const running: { api?: ApiHandle } = {};
let stopping = false;
async function stop(reason: string, exitCode = 0) {
  if (stopping) return;
  stopping = true;
  running.api?.log.info({ reason }, 'api stopping');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  await running.api?.close();
  process.exit(exitCode);
}

const settings = {
  port: Number(env.API_PORT ?? 3000),
  // Loopback by default: the gateway is the way in (docker-compose sets API_HOST=0.0.0.0).
  host: env.API_HOST || '127.0.0.1',
  databaseUrl: env.DATABASE_URL || undefined,
  dataDir: resolve(env.DATA_DIR || './data'),
};
if (!Number.isInteger(settings.port) || settings.port < 0 || settings.port > 65535)
  refuse(`API_PORT must be a port number (0-65535), not "${env.API_PORT}"`);
// /metrics on a port of its own, on loopback unless API_METRICS_HOST says otherwise; "off": none.
const metricsPort = env.API_METRICS_PORT === 'off' ? undefined : Number(env.API_METRICS_PORT || 9465);
if (metricsPort !== undefined && (!Number.isInteger(metricsPort) || metricsPort < 0 || metricsPort > 65535))
  refuse(`API_METRICS_PORT must be a port number (0-65535) or "off", not "${env.API_METRICS_PORT}"`);
const settingsProblem = databaseUrlProblem(settings.databaseUrl) ?? dataDirProblem(settings.dataDir);
if (settingsProblem) refuse(settingsProblem);
// RETENTION_* (db/retention.ts): a wrong value stops the start with one clear line.
try {
  retentionFromEnv(env);
} catch (err) {
  refuse((err as Error).message);
}

running.api = await startApi({
  ...settings,
  metricsPort,
  metricsHost: env.API_METRICS_HOST || '127.0.0.1',
  smtpUrl: env.SMTP_URL || undefined,
  oauthClientId: env.OAUTH_CLIENT_ID || undefined,
  oauthClientSecret: env.OAUTH_CLIENT_SECRET || undefined,
  logLevel: env.LOG_LEVEL || 'info',
  trustProxy: env.TRUST_PROXY || undefined,
  tokenTtlSeconds: env.TOKEN_TTL_SECONDS ? Number(env.TOKEN_TTL_SECONDS) : undefined,
  uploadQuotaMbPerHour: megabytes('UPLOAD_QUOTA_MB_PER_HOUR'),
  uploadQuotaMbPerDay: megabytes('UPLOAD_QUOTA_MB_PER_DAY'),
  // SEED_DEMO=1 seeds any database, 0 none; unset, only a fresh embedded one is seeded.
  seed: env.SEED_DEMO === '1' ? true : env.SEED_DEMO === '0' ? false : undefined,
  firstAdmin: firstAdmin(),
  // Someone else may now open DATA_DIR: stop before writing another byte to it.
  onDataDirLockLost: () => void stop('DATA_DIR lock lost', 1),
}).catch((err: unknown) => {
  // A second api on the same embedded DATA_DIR, a port in use, a database that cannot be
  // reached: one clear line, no stack trace. Anything else is a bug and keeps its stack.
  if (err instanceof DataDirLockedError) refuse(err.message);
  const problem = startUpProblem(err, settings);
  if (problem) refuse(problem);
  throw err;
});

process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
// Under `npm start` (scripts/start.mjs): say when ready, and stop when the supervisor is gone.
if (process.send) {
  process.send({ ready: 'api', port: running.api.port });
  process.on('disconnect', () => void stop('supervisor gone'));
}
