// Migrated and seeded databases that test apis start from, made once and copied for each api
// (README "Test run: templates and workers").
//
// Migrating (the 40-odd migrations) and seeding the demo estate took 15-20 s of every test api on PGlite
// and 2-3 s on PostgreSQL, on a loaded 2-core machine; most api and gateway test files start one
// or more. Instead, the first api of a run that asks for the default (demo seeded, no database
// of its own) builds a template, and every api starts from a copy:
// - PGlite: a dump of the data directory (`PGlite.dumpDataDir`) in a file, loaded with
//   `loadDataDir` (about 1-3 s against 15-20 s);
// - PostgreSQL: a template database, copied with `CREATE DATABASE … TEMPLATE` (about 0.1 s) into
//   a database of the api's own, dropped again on close.
// Templates live in a directory that the api and gateway projects' globalSetup
// (db-template-setup.ts) makes for the run and removes after it, with the PostgreSQL templates.
// The globalSetup builds them before the first file and renews them in the background; test files
// run in their own processes and build one themselves only if none is usable (a lock directory
// makes sure one process builds while the others wait).
//
// The seed is relative to "now" (check-in punches up to now, complaints of recent days, today's
// codes). Decision: a template serves only while it is younger than TEMPLATE_MAX_AGE_MS and was made
// on the same day in Hong Kong (the demo estates' zone); otherwise the next api builds a new one.
// The globalSetup renews them every four minutes (and at midnight HKT), so an api starts from a
// seed at most about four (never more than ten) minutes old, never from yesterday's, whatever the
// hour of the run; a test that needs a seed made right now asks `startTestApi(engine, { freshSeed: true })`.
// The product's own start path is untouched: the template is made by the same openDatabase and
// seedDemo, and an api started from it reports `seedSeconds: null` (it seeded nothing itself).
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../src/db/open-database';
import { seedDemo } from '../../src/seed/seed-demo';

/** Past this age a test api no longer uses a template (the seed's "now" must stay close to the test's). */
export const TEMPLATE_MAX_AGE_MS = 10 * 60_000;
/**
 * The run's globalSetup renews the templates at this age, in the background, so that a test's hook
 * (60 s at most) never waits for a build: at load 20 on 2 cores a build alone took over a minute.
 */
export const TEMPLATE_RENEW_AGE_MS = 4 * 60_000;
/** The day that decides a template's validity: the demo estates' zone. */
const ZONE = 'Asia/Hong_Kong';
/** A lock older than this was left by a process that died while building. */
const STALE_LOCK_MS = 5 * 60_000;

export type TemplateEngine = 'pglite' | 'postgres';

interface TemplateMeta {
  /** PGlite: the dump's file; PostgreSQL: the template database's name. */
  ref: string;
  madeAt: number;
  day: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this run's templates are (db-template-setup.ts); absent outside the api and gateway projects. */
    pmTestTemplates: string;
  }
}

/** The run's template directory, or null (benchmarks, other projects, PM_TEST_TEMPLATES=0). */
export async function templateDir(): Promise<string | null> {
  if (process.env.PM_TEST_TEMPLATES === '0' || !process.env.VITEST) return null;
  const { inject } = await import('vitest');
  return inject('pmTestTemplates') ?? null;
}

function dayIn(zone: string, at: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    at,
  );
}

function usable(meta: TemplateMeta, now = Date.now(), maxAgeMs = TEMPLATE_MAX_AGE_MS): boolean {
  return now - meta.madeAt < maxAgeMs && dayIn(ZONE, now) === meta.day;
}

async function readMeta(path: string): Promise<TemplateMeta | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as TemplateMeta;
  } catch {
    return null;
  }
}

/** Runs `work` holding `<dir>/<name>.lock` (a directory: mkdir is atomic across processes). */
async function withLock<T>(dir: string, name: string, work: () => Promise<T>): Promise<T> {
  const lock = join(dir, `${name}.lock`);
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const since = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (since > STALE_LOCK_MS) await rm(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/** The URL of database `name` on the server of `base` (no search_path: its public schema). */
export function databaseUrlFor(base: string, name: string): string {
  const u = new URL(base);
  u.pathname = `/${name}`;
  u.searchParams.delete('options');
  return u.toString();
}

/** Runs one statement on TEST_DATABASE_URL's server (CREATE/DROP DATABASE cannot run in a transaction). */
export async function adminQuery(text: string): Promise<void> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Migrates and seeds a new template; answers its ref. */
async function build(engine: TemplateEngine, dir: string): Promise<string> {
  const id = randomBytes(4).toString('hex');
  if (engine === 'pglite') {
    const database = await openDatabase({});
    try {
      await seedDemo(database.db);
      const client = (database.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }).$client;
      const dump = await client.dumpDataDir('none');
      const file = join(dir, `pglite-${id}.tar`);
      await writeFile(`${file}.part`, Buffer.from(await dump.arrayBuffer()));
      await rename(`${file}.part`, file);
      return file;
    } finally {
      await database.close();
    }
  }
  // The run's directory name makes the database names of this run (teardown drops them).
  const name = `pm_tmpl_${runTag(dir)}_${id}`;
  await adminQuery(`create database ${name}`);
  const database = await openDatabase({ databaseUrl: databaseUrlFor(process.env.TEST_DATABASE_URL!, name) });
  try {
    await seedDemo(database.db);
  } finally {
    await database.close();
  }
  return name;
}

/** The short tag of a run's template directory, used in its PostgreSQL database names. */
export function runTag(dir: string): string {
  return dir.match(/-([0-9a-f]+)$/)?.[1] ?? 'x';
}

/**
 * A usable template for `engine`: built now if there is none, or the last one is older than
 * `maxAgeMs` or from another day. The run's globalSetup calls it with TEMPLATE_RENEW_AGE_MS every
 * half minute while the templates are in use (renewIfUsed), test apis with the default; either
 * waits while the other builds.
 */
export async function template(engine: TemplateEngine, dir: string, maxAgeMs = TEMPLATE_MAX_AGE_MS): Promise<string> {
  const metaFile = join(dir, `${engine}.json`);
  const meta = await readMeta(metaFile);
  if (meta && usable(meta, Date.now(), maxAgeMs)) return meta.ref;
  return withLock(dir, engine, async () => {
    const again = await readMeta(metaFile);
    if (again && usable(again, Date.now(), maxAgeMs)) return again.ref;
    const now = Date.now();
    const ref = await build(engine, dir);
    await writeFile(metaFile, JSON.stringify({ ref, madeAt: now, day: dayIn(ZONE, now) } satisfies TemplateMeta));
    // The last template stays until the run ends; an older dump file goes now (PGlite's are 50 MB).
    if (engine === 'pglite' && again) await rm(again.ref, { force: true });
    return ref;
  });
}

/** Notes that a test api used `engine`'s template now (renewIfUsed reads it). */
async function markUsed(engine: TemplateEngine, dir: string): Promise<void> {
  await writeFile(join(dir, `${engine}.used`), String(Date.now())).catch(() => undefined);
}

/**
 * The globalSetup's renewal: renews `engine`'s template at TEMPLATE_RENEW_AGE_MS, but only when a
 * test api used it since it was made. The setup lives as long as the whole run, browser projects
 * included: without this it would go on migrating and seeding every four minutes beside the
 * browser tests (two cores, and some of those assert that a change shows within a second).
 */
export async function renewIfUsed(engine: TemplateEngine, dir: string): Promise<void> {
  const meta = await readMeta(join(dir, `${engine}.json`));
  if (meta) {
    const usedAt = Number(await readFile(join(dir, `${engine}.used`), 'utf8').catch(() => '0'));
    if (usedAt < meta.madeAt) return;
  }
  await template(engine, dir, TEMPLATE_RENEW_AGE_MS);
}

/** PGlite: the dump to pass as startApi's `loadDataDir`. */
export async function pgliteTemplate(dir: string): Promise<Blob> {
  for (let attempt = 0; ; attempt++) {
    const file = await template('pglite', dir);
    await markUsed('pglite', dir);
    try {
      return new Blob([await readFile(file)]);
    } catch (err) {
      // Replaced (and removed) by a newer template between the look-up and the read: look again.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt > 2) throw err;
    }
  }
}

/** PostgreSQL: a new database copied from the template, and how to drop it. */
export async function postgresFromTemplate(dir: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `pm_test_${runTag(dir)}_${randomBytes(5).toString('hex')}`;
  for (let attempt = 0; ; attempt++) {
    const source = await template('postgres', dir);
    await markUsed('postgres', dir);
    try {
      await adminQuery(`create database ${name} template ${source}`);
      break;
    } catch (err) {
      // The template is copied only while nobody is connected to it: a build that just ended may
      // still be closing its connections, and two copies at once can collide. Try again.
      if (attempt > 20) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    url: databaseUrlFor(base, name),
    // WITH (FORCE): a connection the api left behind (the realtime LISTEN reconnecting) must not keep it.
    drop: () => adminQuery(`drop database if exists ${name} with (force)`),
  };
}

/** The run's engines: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function templateEngines(): TemplateEngine[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}
