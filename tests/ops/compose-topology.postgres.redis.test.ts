// The production topology of docker-compose.yml as processes on this machine (issue 17): the
// api and the gateway replicas started with their images' commands and the environment written
// in the compose file, each compose host name pointed at its local stand-in — a fresh schema on
// the local PostgreSQL for `postgres`, a key prefix on the local Redis for `redis`, free ports
// for the services. Then: it starts without demo accounts, the first administrator from the
// environment signs in through a gateway that adds the OAuth client secret from its own
// environment, and a sign-out through one gateway reaches the person's tab on the other.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTab, waitFor } from '../../gateway/test/kit';
import { freePorts, imageStart, repoRoot, spawnService, type ServiceProcess } from '../support/kit';

interface Service {
  environment?: Record<string, string>;
  deploy?: { replicas?: number };
}
const composeText = readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8');

/** What an operator sets before `docker compose up` (the variables the file requires). */
const operator = {
  OAUTH_CLIENT_SECRET: `secret-${randomBytes(12).toString('hex')}`,
  ADMIN_USERNAME: 'opsadmin',
  ADMIN_PASSWORD: 'Ops-Start-2024',
};

/** `${NAME:?message}` and `${NAME:-default}` as compose interpolates them from `vars`. */
function interpolate(text: string, vars: Record<string, string>): string {
  return text.replace(
    /\$\{([A-Z_][A-Z0-9_]*)(?::([?-])([^}]*))?\}/g,
    (_m, name: string, kind?: string, rest?: string) => {
      if (vars[name]) return vars[name];
      if (kind === '?') throw new Error(`compose would refuse to start: ${rest}`);
      return kind === '-' ? (rest ?? '') : '';
    },
  );
}
const services = (parse(composeText) as { services: Record<string, Service> }).services;
for (const service of Object.values(services))
  for (const [key, value] of Object.entries(service.environment ?? {}))
    service.environment![key] = interpolate(String(value), operator);

const schema = `compose_${randomBytes(6).toString('hex')}`;
const redisPrefix = `pm-compose-test:${randomBytes(6).toString('hex')}:`;
const baseDb = process.env.TEST_DATABASE_URL!;
const redisUrl = process.env.TEST_REDIS_URL!;
const dataDir = mkdtempSync(join(tmpdir(), 'compose-data-'));
const running: ServiceProcess[] = [];
let api: ServiceProcess;
const gateways: { url: string; metricsUrl: string }[] = [];
let apiMetricsUrl: string;

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: baseDb });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database = new URL(baseDb);
  database.searchParams.set('options', `-c search_path=${schema}`);

  // The api, as compose configures it, with the hosts of the compose network made local.
  const apiEnv = { ...services.api.environment! };
  expect(apiEnv.DATABASE_URL).toMatch(/^postgres:\/\/[^@]+@postgres:5432\//);
  const apiPorts = await freePorts('api', 'metrics');
  api = spawnService(
    'api',
    {
      ...imageStart('api').env,
      ...apiEnv,
      DATABASE_URL: database.toString(),
      DATA_DIR: dataDir,
      API_PORT: String(apiPorts.api),
      API_METRICS_PORT: String(apiPorts.metrics),
    },
    { command: imageStart('api').cmd },
  );
  running.push(api);
  await api.waitForLine((l) => l.msg === 'api listening', 120_000);
  apiMetricsUrl = `http://127.0.0.1:${apiPorts.metrics}/metrics`;

  const gatewayEnv = { ...services.gateway.environment! };
  expect(gatewayEnv.API_URL).toBe(`http://api:${apiEnv.API_PORT}`);
  expect(gatewayEnv.REDIS_URL).toBe('redis://redis:6379');
  const replicas = services.gateway.deploy?.replicas ?? 1;
  for (let i = 0; i < replicas; i++) {
    const ports = await freePorts('gateway', 'metrics');
    const gateway = spawnService(
      'gateway',
      {
        ...imageStart('gateway').env,
        ...gatewayEnv,
        API_URL: `http://127.0.0.1:${apiPorts.api}`,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: redisPrefix,
        PORT: String(ports.gateway),
        METRICS_PORT: String(ports.metrics),
      },
      { command: imageStart('gateway').cmd },
    );
    running.push(gateway);
    await gateway.waitForLine((l) => l.msg === 'gateway listening', 60_000);
    gateways.push({
      url: `http://127.0.0.1:${ports.gateway}`,
      metricsUrl: `http://127.0.0.1:${ports.metrics}/metrics`,
    });
  }
}, 240_000);

afterAll(async () => {
  for (const p of running) await p.stop();
  const admin = new pg.Client({ connectionString: baseDb });
  await admin.connect();
  await admin.query(`drop schema if exists ${schema} cascade`);
  await admin.end();
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`${redisPrefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The console's sign-in call: no client credentials of its own. */
function signIn(baseUrl: string, username: string, password: string, authorization?: string) {
  return fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(authorization ? { authorization } : {}),
    },
    body: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
  });
}

describe('the docker-compose topology as processes', () => {
  it('when it has started, then both gateways are healthy on the api and Redis, and every tier serves its metrics', async () => {
    expect(gateways).toHaveLength(2);
    for (const g of gateways) {
      const health = await fetch(`${g.url}/health`);
      expect(await health.json()).toMatchObject({ code: 200, data: { api: true, redis: true } });
      expect((await fetch(g.metricsUrl)).status).toBe(200);
    }
    expect(await (await fetch(apiMetricsUrl)).text()).toContain('api_db_pool_connections{state="total"}');
  });

  it('when the first administrator from the environment signs in through a gateway, then it works, and no demo account exists', async () => {
    const ok = await signIn(`${gateways[0].url}/api`, operator.ADMIN_USERNAME, operator.ADMIN_PASSWORD);
    expect(ok.status).toBe(200);
    const demo = await signIn(`${gateways[1].url}/api`, 'admin', 'admin123');
    expect(demo.status).toBe(401);
    // The default client secret is not the api's: a caller sending it is refused.
    const defaultSecret = `Basic ${Buffer.from('console:console-secret').toString('base64')}`;
    const refused = await signIn(
      `${gateways[0].url}/api`,
      operator.ADMIN_USERNAME,
      operator.ADMIN_PASSWORD,
      defaultSecret,
    );
    expect(refused.status).toBe(401);
  });

  it('when a person signs out through one gateway, then their tab on the other gateway is told', async () => {
    const res = await signIn(`${gateways[0].url}/api`, operator.ADMIN_USERNAME, operator.ADMIN_PASSWORD);
    const token = ((await res.json()) as { access_token: string }).access_token;
    const tab = await openTab(gateways[1].url, token);
    await tab.nextSnapshot(0);
    const out = await fetch(`${gateways[0].url}/api/auth/signOut`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(out.status).toBe(200);
    const event = await waitFor(() => tab.events.find((e) => e.topic === 'session'), 30_000);
    expect(['logout', 'forcedLogout']).toContain((event as { kind?: string }).kind);
    tab.close();
  });
});
