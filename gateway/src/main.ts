// The gateway process (DESIGN §1, §4): configuration from the environment, graceful stop on SIGTERM.
//
// Start it with `node --max-semi-space-size=32 --import tsx gateway/src/main.ts` (npm start, the
// Dockerfile and the benchmark do). Every live event allocates a little (parsing, the normalized
// event, a frame per tab); with V8's default 16 MB young generation much of it is still in flight
// at a scavenge and gets promoted, and the old generation then needs a major collection every few
// seconds at 2,000 events/s, each a stall for every tab. With 32 MB, measured in
// `npm run bench gateway`: scavenges every 0.7 s instead of 0.35 s and a third less promoted, so
// major collections come about half as often (at 2,000 events/s still about every 5 s, 5–17 ms).
import { limitsFromEnv } from './limits-config';
import { createLogger } from './logger';
import { guardProcess } from './process-guards';
import { startGateway } from './server';

let limits: ReturnType<typeof limitsFromEnv>;
try {
  limits = limitsFromEnv(process.env);
} catch (err) {
  console.error(`gateway: ${(err as Error).message}`);
  process.exit(1);
}

const gateway = await startGateway({
  port: Number(process.env.PORT ?? 8080),
  apiUrl: process.env.API_URL ?? `http://127.0.0.1:${process.env.API_PORT ?? 3000}`,
  redisUrl: process.env.REDIS_URL || undefined,
  redisPrefix: process.env.REDIS_PREFIX || undefined,
  clientDist: process.env.CLIENT_DIST || undefined,
  logLevel: process.env.LOG_LEVEL || 'info',
  graceMs: process.env.GATEWAY_GRACE_MS ? Number(process.env.GATEWAY_GRACE_MS) : undefined,
  leaseTtlMs: process.env.GATEWAY_LEASE_TTL_MS ? Number(process.env.GATEWAY_LEASE_TTL_MS) : undefined,
  // The same client as the api's: added to the console's sign-in calls (client-credentials.ts).
  oauthClient: {
    id: process.env.OAUTH_CLIENT_ID || 'console',
    secret: process.env.OAUTH_CLIENT_SECRET || 'console-secret',
  },
  ...limits,
});

const stop = (code = 0) => {
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  gateway.close().then(
    () => process.exit(code),
    () => process.exit(1),
  );
};
guardProcess(createLogger(process.env.LOG_LEVEL || 'info'), stop);
process.on('SIGTERM', () => stop());
process.on('SIGINT', () => stop());
