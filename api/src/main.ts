// The api process: reads the environment, starts the api and stops it cleanly on SIGTERM/SIGINT.
import { resolve } from 'node:path';
import { startApi } from './server';

const env = process.env;
const api = await startApi({
  port: Number(env.API_PORT ?? 3000),
  // Loopback by default: the gateway is the way in (docker-compose sets API_HOST=0.0.0.0).
  host: env.API_HOST || '127.0.0.1',
  databaseUrl: env.DATABASE_URL || undefined,
  dataDir: resolve(env.DATA_DIR ?? './data'),
  smtpUrl: env.SMTP_URL || undefined,
  oauthClientId: env.OAUTH_CLIENT_ID || undefined,
  oauthClientSecret: env.OAUTH_CLIENT_SECRET || undefined,
  logLevel: env.LOG_LEVEL || 'info',
  trustProxy: env.TRUST_PROXY || undefined,
  tokenTtlSeconds: env.TOKEN_TTL_SECONDS ? Number(env.TOKEN_TTL_SECONDS) : undefined,
  // SEED_DEMO=1 seeds any database; otherwise only a fresh embedded one is seeded.
  seed: env.SEED_DEMO === '1' ? true : undefined,
});

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  api.log.info({ signal }, 'api stopping');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  await api.close();
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
