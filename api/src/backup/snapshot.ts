// A backup of the embedded database and the uploaded files (issue 17): what it holds and how it
// is made consistent. The api (control-socket.ts) and `npm run backup` (cli.ts) both use it.
//
// Archive (.tar.gz): manifest.json, database/ (the PGlite data directory's files) and uploads/.
// The database files are copied while no query runs (PGlite is asked for a transaction and the
// copy happens inside it, after a CHECKPOINT): a consistent state, as after a clean stop. The
// uploaded files are hard-linked in the same pause (a stored file never changes; a link costs no
// copy), so every picture the copied database names is in the archive.
import { cp, link, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { create } from 'tar';

export const UPLOADS = 'uploads';
export const CONTROL_SOCKET = 'api.sock';
export const MANIFEST_FORMAT = 'property-console-backup';

/**
 * Entries of DATA_DIR that are not the database: the uploads, the lock, the control socket, work
 * directories, and the engine's own pid file (it describes the running process, not the data).
 */
const NOT_DATABASE = new Set([UPLOADS, 'api.lock', CONTROL_SOCKET, 'postmaster.pid']);
const isDatabaseEntry = (name: string) =>
  !NOT_DATABASE.has(name) && !name.startsWith('.backup-') && !name.startsWith('.restore-');

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  version: 1;
  createdAt: string;
  engine: 'pglite';
  uploadedFiles: number;
}

/** Runs `work` while the database answers no query (the api: inside a PGlite transaction). */
export type Quiesce = <T>(work: () => Promise<T>) => Promise<T>;

/** Hard-links every file under `from` into `to` (uploads in progress, `.incoming`, are left out); returns how many. */
async function linkTree(from: string, to: string): Promise<number> {
  await mkdir(to, { recursive: true });
  let files = 0;
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (entry.name === '.incoming') continue;
    if (entry.isDirectory()) files += await linkTree(join(from, entry.name), join(to, entry.name));
    else if (entry.isFile()) {
      await link(join(from, entry.name), join(to, entry.name));
      files += 1;
    }
  }
  return files;
}

/** Whether DATA_DIR already holds an embedded database. */
export async function holdsDatabase(dataDir: string): Promise<boolean> {
  return stat(join(dataDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
}

/**
 * Copies the database and links the uploads of `dataDir` into `staging` (a new directory inside
 * DATA_DIR, so links work), the two within one `quiesce`, and writes the manifest.
 */
export async function snapshot(dataDir: string, staging: string, quiesce: Quiesce): Promise<Manifest> {
  await mkdir(join(staging, 'database'), { recursive: true });
  const uploads = join(dataDir, UPLOADS);
  const uploadedFiles = await quiesce(async () => {
    for (const name of (await readdir(dataDir)).filter(isDatabaseEntry))
      await cp(join(dataDir, name), join(staging, 'database', name), { recursive: true, preserveTimestamps: true });
    const hasUploads = await stat(uploads).then(
      (s) => s.isDirectory(),
      () => false,
    );
    return hasUploads ? linkTree(uploads, join(staging, UPLOADS)) : (await mkdir(join(staging, UPLOADS)), 0);
  });
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    version: 1,
    createdAt: new Date().toISOString(),
    engine: 'pglite',
    uploadedFiles,
  };
  await writeFile(join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return manifest;
}

/** The staging directory as a .tar.gz stream. */
export function pack(staging: string): Readable {
  return create({ gzip: true, cwd: staging, portable: true }, [
    'manifest.json',
    'database',
    UPLOADS,
  ]) as unknown as Readable;
}

/** A work directory inside DATA_DIR (same file system as the data, for links and renames). */
export function stagingDir(dataDir: string, kind: 'backup' | 'restore'): string {
  return join(dataDir, `.${kind}-${process.pid}-${Date.now()}`);
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** The manifest of an extracted archive, or an error naming what is wrong with it. */
export async function readManifest(dir: string): Promise<Manifest> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    throw new Error('the file is not a backup of this product (no manifest.json)');
  }
  if (manifest.format !== MANIFEST_FORMAT || manifest.version !== 1)
    throw new Error(`the file is not a backup this version can restore (${manifest.format} ${manifest.version})`);
  return manifest;
}
