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

/** A start-up failure: one line naming the setting and the fix, exit code 1, nothing left running. */
function refuse(line: string): never {
  console.error(line);
  process.exit(1);
}

/** A port from the environment (`fallback` when unset); `off` only where `allowOff`. */
function portFrom(name: string, fallback: number, allowOff = false): number | null {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (allowOff && raw === 'off') return null;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    refuse(`${name} must be a port number (0-65535)${allowOff ? ' or "off"' : ''}, not "${raw}"`);
  return port;
}

// Node reads the stack of every failed socket write (a tab that went away): with source maps on
// (tsx turns them on) each read maps every frame, which was 8 % of the gateway's time when
// thousands of tabs came back at once (README, issue 34, part 9). GATEWAY_SOURCE_MAPS=1 turns them on.
if (process.env.GATEWAY_SOURCE_MAPS !== '1') process.setSourceMapsEnabled(false);

let limits: ReturnType<typeof limitsFromEnv>;
try {
  limits = limitsFromEnv(process.env);
} catch (err) {
  refuse(`gateway: ${(err as Error).message}`);
}

const port = portFrom('PORT', 8080)!;
// API_URLS: this gateway's api first, then the ones it uses while that one is down (api-targets.ts).
const apiUrls = process.env.API_URLS
  ? process.env.API_URLS.split(',')
      .map((u) => u.trim())
      .filter(Boolean)
  : [process.env.API_URL || `http://127.0.0.1:${process.env.API_PORT || 3000}`];
for (const url of apiUrls)
  if (!URL.canParse(url))
    refuse(
      process.env.API_URLS
        ? `API_URLS must be api URLs separated by commas, e.g. http://api-1:3000,http://api-2:3000, not "${process.env.API_URLS}"`
        : `API_URL must be the api's URL, e.g. http://127.0.0.1:3000, not "${url}"`,
    );
if (apiUrls.length === 0) refuse('API_URLS must name at least one api URL, e.g. http://api-1:3000,http://api-2:3000');
const [apiUrl, ...fallbackApiUrls] = apiUrls;

const gateway = await startGateway({
  port,
  apiUrl,
  fallbackApiUrls,
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
  // /metrics on its own port, on loopback unless METRICS_HOST says otherwise (compose: its network).
  metricsPort: portFrom('METRICS_PORT', 9464, true),
  metricsHost: process.env.METRICS_HOST || '127.0.0.1',
  ...limits,
}).catch((err: NodeJS.ErrnoException & { port?: number }) => {
  if (err.syscall === 'listen' && err.code === 'EADDRINUSE')
    refuse(`PORT ${port} is already in use by another process: stop that process, or set PORT to a free port`);
  if (err.syscall === 'listen' && err.code === 'EACCES')
    refuse(`PORT ${port} may not be opened by this user: set PORT to a port above 1023`);
  throw err;
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
// Under `npm start` (scripts/start.mjs): say when ready, and stop when the supervisor is gone.
if (process.send) {
  process.send({ ready: 'gateway', port: gateway.port });
  process.on('disconnect', () => stop());
}
