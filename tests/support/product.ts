// Starts the product the way `npm start` does, on free ports with a fresh data directory.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { copyTemplate } from './demo-template';

export const repoRoot = join(import.meta.dirname, '..', '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface Product {
  url: string;
  apiUrl: string;
  dataDir: string;
  /** The process id of scripts/start.mjs (the api and the gateway are its children). */
  pid: number;
  output: () => string;
  stop: () => Promise<void>;
}

/** A fresh, empty DATA_DIR for {@link startProduct}. */
export const newDataDir = (): string => mkdtempSync(join(tmpdir(), 'pm-e2e-'));

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this run keeps its seeded DATA_DIR templates (global-setup.ts, demo-template.ts). */
    demoTemplates: string;
  }
}

/** This run's template directory, or undefined outside a vitest run of the e2e projects. */
function templateRoot(): string | undefined {
  try {
    return inject('demoTemplates') || undefined;
  } catch {
    return undefined;
  }
}

/** Starts the product on `dataDir` once, so that it migrates and seeds the demo there, and stops it. */
export async function seedInto(dataDir: string): Promise<void> {
  await (await startProduct({}, { dataDir, freshSeed: true })).stop();
}

/**
 * Fills `dataDir` (a new one from {@link newDataDir}) with the demo estate, migrated and seeded, as
 * a first start of the product leaves it: a copy of this run's template (demo-template.ts says when
 * one stands in for a fresh seed), or that first start itself outside a vitest run.
 */
export async function seedDataDir(dataDir: string): Promise<void> {
  const root = templateRoot();
  if (root) await copyTemplate(root, dataDir, seedInto);
  else await seedInto(dataDir);
}

export interface StartOptions {
  /** Start on this DATA_DIR as it is (stop() then leaves it in place, to start again on the same data). */
  dataDir?: string;
  /** Seed the demo at this start, not from this run's template (see demo-template.ts). */
  freshSeed?: boolean;
}

/**
 * `npm start` on free ports and a fresh DATA_DIR (or `options.dataDir`); resolves once it prints
 * that it is running. The fresh DATA_DIR starts as a copy of this run's seeded template (the demo
 * estate, migrated and seeded; demo-template.ts) unless `options.freshSeed` or `extraEnv` names
 * another DATA_DIR, a DATABASE_URL or SEED_DEMO: then the product migrates and seeds by itself.
 */
/** How the gateway, the api and `npm start` refuse a port another process holds (start-up.test.ts checks it against them). */
export const PORT_TAKEN = / is already in use (on \S+ )?by another process/;

export async function startProduct(
  extraEnv: Record<string, string> = {},
  options: StartOptions = {},
): Promise<Product> {
  // Test files run side by side (vitest.config.ts): a port found free can be taken by another
  // process before `npm start` binds it, which it refuses with "PORT … is already in use by another
  // process" or "API_PORT … is already in use on 127.0.0.1 by another process": start again on
  // other free ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startProductOnce(extraEnv, options);
    } catch (err) {
      if (attempt >= 3 || !PORT_TAKEN.test((err as Error).message)) throw err;
    }
  }
}

async function startProductOnce(extraEnv: Record<string, string>, options: StartOptions): Promise<Product> {
  const [port, apiPort] = [await freePort(), await freePort()];
  const dataDir = options.dataDir ?? newDataDir();
  const root = templateRoot();
  const wantsDemo = !options.freshSeed && !['DATA_DIR', 'DATABASE_URL', 'SEED_DEMO'].some((k) => k in extraEnv);
  if (!options.dataDir && root && wantsDemo) await copyTemplate(root, dataDir, seedInto);
  let out = '';
  const child: ChildProcess = spawn('node', [join(repoRoot, 'scripts', 'start.mjs')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      API_PORT: String(apiPort),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      // Metrics on free ports too (9464 and 9465 by default), so products side by side never meet.
      METRICS_PORT: '0',
      API_METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`product did not start in time:\n${out}`)), 170_000);
    const check = () => {
      if (out.includes('is running at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      reject(new Error(`npm start exited with ${code}:\n${out}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    apiUrl: `http://127.0.0.1:${apiPort}`,
    dataDir,
    pid: child.pid!,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGINT');
        await exited;
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
