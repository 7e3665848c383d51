// No Docker engine runs on these machines, so the compose file is checked as data: its
// services, replicas, ports, health checks and environment against the README's table.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string>;
  ports?: string[];
  healthcheck?: { test: string[] | string };
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number };
}
const composeText = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
const compose = parse(composeText) as { services: Record<string, Service> };
const demo = parse(readFileSync(join(root, 'docker-compose.demo.yml'), 'utf8')) as {
  services: Record<string, Partial<Service>>;
};
/** KEY=value lines of the demo's env file (what `--env-file` gives compose for interpolation). */
const demoEnv = Object.fromEntries(
  readFileSync(join(root, 'docker-compose.demo.env'), 'utf8')
    .split('\n')
    .filter((l) => /^[A-Z][A-Z0-9_]*=/.test(l))
    .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
);
/** Variables the file requires (`${NAME:?message}`): compose refuses to start without them. */
const required = (text: string) => new Set([...text.matchAll(/\$\{([A-Z][A-Z0-9_]*):\?[^}]+\}/g)].map((m) => m[1]));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
// Rows of the configuration table: | `NAME` | default | meaning |
const documented = new Set([...readme.matchAll(/^\|\s*`([A-Z][A-Z0-9_]+)`\s*\|/gm)].map((m) => m[1]));

describe('docker-compose.yml', () => {
  it('when parsed, then it runs postgres, redis, the api and two gateway replicas', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['api', 'gateway', 'postgres', 'redis']);
    expect(compose.services.gateway.deploy?.replicas).toBe(2);
    expect(compose.services.gateway.ports).toEqual(['8080-8081:8080']);
  });

  it('when any service starts, then it has a health check and waits for healthy dependencies', () => {
    for (const [name, s] of Object.entries(compose.services)) {
      expect(s.healthcheck?.test, name).toBeTruthy();
      for (const [dep, cond] of Object.entries(s.depends_on ?? {})) {
        expect(compose.services[dep], `${name} depends on ${dep}`).toBeTruthy();
        expect(cond.condition).toBe('service_healthy');
      }
    }
  });

  it('when the api and gateway are configured, then every variable is in the README table', () => {
    for (const name of ['api', 'gateway']) {
      for (const key of Object.keys(compose.services[name].environment ?? {}))
        expect(documented, `${name}: ${key}`).toContain(key);
    }
  });

  it('when the tiers are wired, then the gateway uses Redis and the api, and the api PostgreSQL', () => {
    const api = compose.services.api.environment!;
    const gw = compose.services.gateway.environment!;
    expect(api.DATABASE_URL).toMatch(/^postgres:\/\/.+@postgres:5432\//);
    expect(gw.API_URL).toBe(`http://api:${api.API_PORT}`);
    expect(gw.REDIS_URL).toBe('redis://redis:6379');
    expect(compose.services.api.healthcheck!.test.toString()).toContain(`:${api.API_PORT}/health`);
    expect(compose.services.gateway.healthcheck!.test.toString()).toContain(`:${gw.PORT}/health`);
  });

  it('when the images are built, then each Dockerfile exists and starts its own entry point', () => {
    for (const name of ['api', 'gateway']) {
      const file = readFileSync(join(root, compose.services[name].build!.dockerfile), 'utf8');
      expect(file).toContain(`${name}/src/main.ts`);
      expect(file).toMatch(/npm ci/);
    }
  });

  it('when the README documents the environment, then DESIGN §4 variables are all there', () => {
    for (const key of [
      'PORT',
      'API_PORT',
      'API_URL',
      'DATABASE_URL',
      'DATA_DIR',
      'REDIS_URL',
      'SMTP_URL',
      'OAUTH_CLIENT_ID',
      'OAUTH_CLIENT_SECRET',
      'LOG_LEVEL',
    ])
      expect(documented).toContain(key);
  });

  it('when started for production, then no demo is seeded and the client secret and first administrator must come from the environment', () => {
    const api = compose.services.api.environment!;
    expect(api.SEED_DEMO).toBe('0');
    expect([...required(composeText)].sort()).toEqual(['ADMIN_PASSWORD', 'ADMIN_USERNAME', 'OAUTH_CLIENT_SECRET']);
    for (const key of ['OAUTH_CLIENT_SECRET', 'ADMIN_USERNAME', 'ADMIN_PASSWORD'])
      expect(api[key], key).toMatch(new RegExp(`^\\$\\{${key}:\\?.+\\}$`));
    // No default secret or demo password is written into the production file.
    expect(composeText).not.toMatch(/console-secret|admin123|staff123|resident123/);
  });

  it('when the demo override is added with its env file, then it seeds the demo and provides every required variable', () => {
    expect(Object.keys(demo.services)).toEqual(['api']);
    expect(demo.services.api.environment).toEqual({ SEED_DEMO: '1' });
    for (const key of required(composeText)) expect(demoEnv[key], key).toBeTruthy();
    expect(demoEnv.OAUTH_CLIENT_SECRET).toBe('console-secret');
  });
});
