// `npm run backup -- <file>` and `npm run restore -- <file>` (README "Operations", issue 17):
// the embedded database and the uploaded files of DATA_DIR, in one .tar.gz.
//
// backup: while the api runs, it is asked over DATA_DIR/api.sock and makes the backup itself
//   during a pause of its database (snapshot.ts); when it does not run, this command takes
//   DATA_DIR's lock (so it cannot start meanwhile) and copies the files.
// restore: into a DATA_DIR without a database, with the api stopped (the lock is taken).
// With DATABASE_URL (PostgreSQL) the database is PostgreSQL's to back up: pg_dump / pg_restore,
// and the uploads under DATA_DIR/uploads with tar (README "Operations").
//
// Every outcome is one line; a failure exits 1.
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { extract } from 'tar';
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock';
import {
  CONTROL_SOCKET,
  holdsDatabase,
  pack,
  readManifest,
  removeDir,
  snapshot,
  stagingDir,
  UPLOADS,
} from './snapshot';

const root = resolve(import.meta.dirname, '../../..');
const env = process.env;
// `npm run` works in the repository root; a relative file is meant from where the command was typed.
const here = env.INIT_CWD ?? process.cwd();
// As `npm start` and the api resolve it.
const dataDir = resolve(root, env.DATA_DIR || 'data');

function fail(line: string): never {
  console.error(line);
  process.exit(1);
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Asks the running api for a backup; null when no api answers on the control socket. */
function backupFromRunningApi(file: string): Promise<{ uploadedFiles: number } | null> {
  return new Promise((resolvePromise, reject) => {
    const req = request({ socketPath: join(dataDir, CONTROL_SOCKET), path: '/backup', method: 'GET' }, (res) => {
      if (res.statusCode !== 200) {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => reject(new Error(`the api refused: ${text || res.statusCode}`)));
        return;
      }
      const partial = `${file}.partial`;
      pipeline(res, createWriteStream(partial))
        .then(() => rename(partial, file))
        .then(() => resolvePromise({ uploadedFiles: Number(res.headers['x-backup-uploaded-files'] ?? 0) }))
        .catch(async (err: Error) => {
          await rm(partial, { force: true });
          reject(err);
        });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') resolvePromise(null);
      else reject(err);
    });
    req.end();
  });
}

async function backup(file: string): Promise<string> {
  await mkdir(dirname(file), { recursive: true });
  const online = await backupFromRunningApi(file);
  if (online)
    return `backup of ${dataDir} written to ${file} (${megabytes((await stat(file)).size)}, ${online.uploadedFiles} uploaded files), made by the running api`;

  if (!(await holdsDatabase(dataDir))) fail(`DATA_DIR ${dataDir} holds no database to back up: set DATA_DIR`);
  const lock = await lockDataDir(dataDir).catch((err: unknown) => {
    if (err instanceof DataDirLockedError)
      fail(`${err.message}; it did not answer on ${join(dataDir, CONTROL_SOCKET)}: stop it, then run the backup again`);
    throw err;
  });
  const staging = stagingDir(dataDir, 'backup');
  try {
    // Nothing else runs on DATA_DIR while we hold its lock: no pause needed.
    const manifest = await snapshot(dataDir, staging, (work) => work());
    const partial = `${file}.partial`;
    await pipeline(pack(staging), createWriteStream(partial));
    await rename(partial, file);
    return `backup of ${dataDir} written to ${file} (${megabytes((await stat(file)).size)}, ${manifest.uploadedFiles} uploaded files), the api was not running`;
  } finally {
    await removeDir(staging);
    await lock.release();
  }
}

async function restore(file: string): Promise<string> {
  if (!(await stat(file).catch(() => null))?.isFile()) fail(`${file} does not exist`);
  await mkdir(dataDir, { recursive: true });
  if (await holdsDatabase(dataDir))
    fail(
      `DATA_DIR ${dataDir} already holds a database: restore into an empty DATA_DIR (stop the api and move this directory away first)`,
    );
  const uploads = join(dataDir, UPLOADS);
  if ((await readdir(uploads).catch(() => [])).length > 0)
    fail(`DATA_DIR ${dataDir} already holds uploaded files (${uploads}): restore into an empty DATA_DIR`);
  const lock = await lockDataDir(dataDir).catch((err: unknown) => {
    if (err instanceof DataDirLockedError) fail(`${err.message}; stop it before restoring`);
    throw err;
  });
  const staging = stagingDir(dataDir, 'restore');
  try {
    await mkdir(staging);
    await extract({ file, cwd: staging }).catch(() => fail(`${file} is not a backup of this product (not a .tar.gz)`));
    const manifest = await readManifest(staging).catch((err: Error) => fail(`${file}: ${err.message}`));
    for (const name of await readdir(join(staging, 'database')))
      await rename(join(staging, 'database', name), join(dataDir, name));
    await rm(uploads, { recursive: true, force: true });
    await rename(join(staging, UPLOADS), uploads);
    return `restored ${file} (made ${manifest.createdAt}, ${manifest.uploadedFiles} uploaded files) into ${dataDir}: start the api on it`;
  } finally {
    await removeDir(staging);
    await lock.release();
  }
}

const [command, target] = process.argv.slice(2);
if ((command !== 'backup' && command !== 'restore') || !target)
  fail('usage: npm run backup -- <file.tar.gz>   or   npm run restore -- <file.tar.gz>');
if (env.DATABASE_URL)
  fail(
    `DATABASE_URL is set: the database is PostgreSQL's, ${command === 'backup' ? 'back it up with pg_dump' : 'restore it with pg_restore'} and the uploaded files under ${join(dataDir, UPLOADS)} with tar (README "Operations")`,
  );
const file = resolve(here, target);
// DATA_DIR's lock helper does not keep a process alive on its own (data-dir-lock.ts): this does,
// until the command has finished and the lock is released.
const alive = setInterval(() => undefined, 60_000);
const line = await (command === 'backup' ? backup(file) : restore(file)).catch((err: Error) =>
  fail(`${command} failed: ${err.message}`),
);
clearInterval(alive);
console.log(line);
