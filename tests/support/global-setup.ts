// Once before the browser and topology tests (vitest.config.ts, projects e2e and e2e-serial):
// build the console when client/dist is missing or older than what it is built from, as
// scripts/start.mjs does (the same check), and the gateway's bundle likewise. Files run two at a time, and two products starting
// at once on a stale build would each run the build into the same client/dist.
// Then give the run a directory for its seeded DATA_DIR templates, which the products of the files
// copy instead of migrating and seeding each their own (demo-template.ts); the teardown removes it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildGateway, gatewayBundleFresh } from '../../scripts/build-gateway.mjs';
import { repoRoot } from './product';

/** The newest modification time of a file, or of any file in a directory. */
function newest(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = 0;
  for (const name of readdirSync(path)) t = Math.max(t, newest(join(path, name)));
  return t;
}

export default async function setup(project: TestProject): Promise<() => void> {
  buildConsole();
  // The gateway built ahead (gateway/dist/main.js), when missing or stale: the products' `npm start`
  // would build it too, two at once, and the gateway image's simulation copies it (tests/support/dockerfile.ts).
  if (!gatewayBundleFresh()) await buildGateway();
  // Both e2e projects run this setup before any file runs (vitest runs every project's setup
  // before the first file of the run) and share one directory of templates: the serial files,
  // which start as the others end, copy the last template the others made while it is young
  // enough. A template is made by the first product start that needs one (demo-template.ts, one
  // file at a time), not here: in `npm test` the api and gateway files run first, for 10 minutes
  // and more, and a template made now would have aged past its 5 minutes before the first browser
  // file: a seed (a product start and stop, 15-30 s) paid for nothing at the start of every run.
  // E2E_SEED_TEMPLATE=0: every product migrates and seeds its own (to compare, or to rule the template out).
  if (process.env.E2E_SEED_TEMPLATE === '0') return () => {};
  const shared = (holder[key] ??= { root: mkdtempSync(join(tmpdir(), 'pm-e2e-templates-')), users: 0 });
  shared.users++;
  project.provide('demoTemplates', shared.root);
  return () => {
    if (--shared.users > 0) return;
    holder[key] = undefined;
    rmSync(shared.root, { recursive: true, force: true });
  };
}

/** The run's template directory, shared by both e2e projects (vitest runs their setups in one process). */
const key = Symbol.for('pm.test.demoTemplates');
const holder = globalThis as unknown as Record<symbol, { root: string; users: number } | undefined>;

function buildConsole(): void {
  if (process.env.CLIENT_DIST) return;
  const dist = join(repoRoot, 'client', 'dist', 'index.html');
  const sources = [
    ...['src', 'public', 'build', 'index.html', 'vite.config.ts'].map((p) => join(repoRoot, 'client', p)),
    join(repoRoot, 'shared', 'src'),
    join(repoRoot, 'locales'),
  ].filter((p) => existsSync(p));
  if (existsSync(dist) && Math.max(...sources.map(newest)) <= statSync(dist).mtimeMs) return;
  console.log('Building the console (client/dist) for the browser tests …');
  const r = spawnSync('npm', ['run', 'build', '-w', 'client'], { cwd: repoRoot, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('the console did not build (npm run build -w client)');
}
