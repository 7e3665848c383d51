// A seeded DATA_DIR made once and copied into each browser test's product (tests/support/product.ts).
//
// A product started on an empty DATA_DIR migrates its embedded database (every migration) and
// seeds the demo estate before it answers: 10-20 s of a browser file under load. The copy of a
// directory where that already happened starts in about the time the gateway takes (the api
// finds its migrations applied and the database not fresh, so it neither migrates nor seeds).
//
// The demo seed is relative to "now": check-in punches up to now, complaint, alarm and message
// times some minutes to days ago, ads and holidays around the estate's today (Asia/Hong_Kong,
// the only zone the seed uses). A file started on a fresh seed already runs its tests up to a few
// minutes after it, so a template at most TEMPLATE_MAX_AGE_MS old shifts those times by no more
// than a file's own run does; and a template is never used on another Hong Kong day than the
// one it was made on (a seed made before midnight says "today" of the day before). Past either
// bound the next product start makes a new template (and every start after it copies that one).
// A file that needs the seed made at its own start passes `{ freshSeed: true }` to startProduct.
//
// Templates live under one directory per run, made by global-setup.ts and removed by its
// teardown (the first template is made by the first product start that needs one); each
// template is a sub-directory that counts once its `template.json` is written, so a copy never starts from a half-made one. A file that finds the
// newest too old makes one holding a lock (a directory under the run's): the other worker's file
// that finds the same waits for it instead of making a second one at the same time (files run two
// at a time with E2E_WORKERS=2; a seed is a product start of 15-30 s on both cores).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** How long a template stands in for a fresh seed (see above). */
export const TEMPLATE_MAX_AGE_MS = 5 * 60_000;
/** Older templates than this are removed when a new one is made (no copy takes that long). */
const TEMPLATE_REMOVE_AFTER_MS = 3 * TEMPLATE_MAX_AGE_MS;
const MARK = 'template.json';
/** The lock held while a template is made (a directory: mkdir is atomic across processes). */
const LOCK = 'making.lock';
/** A lock older than this was left by a process that died while making a template. */
const STALE_LOCK_MS = 5 * 60_000;
/** What a running api leaves in DATA_DIR that a copy must not take: its lock file and control socket. */
const NOT_COPIED = new Set(['api.lock', 'api.sock']);

const hongKongDay = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Hong_Kong' }).format(ms);

interface Template {
  dir: string;
  madeAt: number;
}

/** The newest complete template under `root`, or null. */
function newest(root: string): Template | null {
  let best: Template | null = null;
  for (const name of existsSync(root) ? readdirSync(root) : []) {
    const mark = join(root, name, MARK);
    if (!existsSync(mark)) continue;
    const { madeAt } = JSON.parse(readFileSync(mark, 'utf8')) as { madeAt: number };
    if (!best || madeAt > best.madeAt) best = { dir: join(root, name), madeAt };
  }
  return best;
}

/** Whether a template made at `madeAt` may stand in for a seed made now. */
export function templateUsable(madeAt: number, now = Date.now()): boolean {
  return now - madeAt <= TEMPLATE_MAX_AGE_MS && hongKongDay(madeAt) === hongKongDay(now);
}

/**
 * Makes a template under `root`: `seed(dir)` starts the product on the new directory `dir` until
 * it says it is running and stops it cleanly (the api closes its database and releases the
 * lock); answers the template.
 */
export async function makeTemplate(root: string, seed: (dataDir: string) => Promise<void>): Promise<Template> {
  mkdirSync(root, { recursive: true });
  // The seed's "now" is a moment after this: the earlier time errs on the safe side.
  const madeAt = Date.now();
  const dir = join(root, `seed-${madeAt}-${process.pid}`);
  try {
    await seed(dir);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  writeFileSync(join(dir, MARK), JSON.stringify({ madeAt }));
  for (const name of readdirSync(root)) {
    const mark = join(root, name, MARK);
    if (!existsSync(mark)) continue;
    const other = JSON.parse(readFileSync(mark, 'utf8')) as { madeAt: number };
    if (madeAt - other.madeAt > TEMPLATE_REMOVE_AFTER_MS) rmSync(join(root, name), { recursive: true, force: true });
  }
  return { dir, madeAt };
}

/**
 * Fills the directory `dataDir` (new or empty) with a copy of a usable template under `root`,
 * made first with `seed` if there is none (see the header for when one is usable).
 */
export async function copyTemplate(
  root: string,
  dataDir: string,
  seed: (dataDir: string) => Promise<void>,
): Promise<void> {
  let template = newest(root);
  if (!template || !templateUsable(template.madeAt))
    // One file makes it; a file that starts meanwhile (the other worker) waits and copies that one.
    template = await withLock(root, () => {
      const again = newest(root);
      return again && templateUsable(again.madeAt) ? again : makeTemplate(root, seed);
    });
  const from = template.dir;
  cpSync(from, dataDir, {
    recursive: true,
    filter: (src) => {
      const top = src.slice(from.length + 1);
      return !NOT_COPIED.has(top) && top !== MARK;
    },
  });
}

/** Runs `work` holding `<root>/making.lock`. */
async function withLock<T>(root: string, work: () => Promise<T> | T): Promise<T> {
  mkdirSync(root, { recursive: true });
  const lock = join(root, LOCK);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let age = 0;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        continue; // removed meanwhile: try again at once
      }
      if (age > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
