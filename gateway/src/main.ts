// The gateway process (DESIGN §1, §4): configuration from the environment, graceful stop on SIGTERM.
import { startGateway } from './server';

const gateway = await startGateway({
  port: Number(process.env.PORT ?? 8080),
  apiUrl: process.env.API_URL ?? `http://127.0.0.1:${process.env.API_PORT ?? 3000}`,
  redisUrl: process.env.REDIS_URL || undefined,
  redisPrefix: process.env.REDIS_PREFIX || undefined,
  clientDist: process.env.CLIENT_DIST || undefined,
  logLevel: process.env.LOG_LEVEL || 'info',
  graceMs: process.env.GATEWAY_GRACE_MS ? Number(process.env.GATEWAY_GRACE_MS) : undefined,
  leaseTtlMs: process.env.GATEWAY_LEASE_TTL_MS ? Number(process.env.GATEWAY_LEASE_TTL_MS) : undefined,
});

const stop = () => {
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  gateway.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
