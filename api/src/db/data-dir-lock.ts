import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One api process per embedded database directory (issue 14 item 8): two PGlite instances on one
 * DATA_DIR both write and lose each other's commits. The lock is a kernel `flock` on
 * `DATA_DIR/api.lock`, held by a small `flock(1)` helper (util-linux, on every Linux and in the
 * Docker images; Node has no flock of its own) that lives exactly as long as this process:
 * it waits on a pipe from us, and when this process ends — however, kill -9 included — the
 * kernel closes the pipe, the helper exits and the kernel drops the lock. No stale lock file to
 * clear by hand, no heartbeat that a busy event loop (PGlite's WASM blocks it) could miss.
 * Where `flock` is missing (macOS, Windows) the directory is not locked and a warning says so.
 */

export const LOCK_FILE = 'api.lock';

/** DATA_DIR is in use by another process: the api must not start on it. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    holder: string,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another api process${holder ? ` (pid ${holder})` : ''}: stop it, or give this one another DATA_DIR or a DATABASE_URL`,
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  /** false where flock(1) is missing: nothing is locked. */
  locked: boolean;
  /** Releases the lock (resolves once the helper is gone, so the directory can be reopened at once). */
  release(): Promise<void>;
}

export interface LockOptions {
  /** Called if the lock is lost while held (someone killed the helper). */
  onLost?: () => void;
  /** Told once when the directory cannot be locked on this system. */
  onUnsupported?: (reason: string) => void;
}

/** Takes the exclusive lock on `dataDir` or throws DataDirLockedError when another process holds it. */
export async function lockDataDir(dataDir: string, options: LockOptions = {}): Promise<DataDirLock> {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, LOCK_FILE);
  // -n: fail at once when held. The helper says "locked" once it holds the lock, then waits for
  // end-of-input on stdin, which is our pipe. Its own process group keeps a terminal's Ctrl+C
  // (sent to our group) from releasing the lock before we have shut down.
  const helper = spawn('flock', ['-x', '-n', file, 'sh', '-c', 'echo locked; read -r _'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let releasing = false;
  let stderr = '';
  helper.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => helper.once('exit', (code) => resolve(code)));
  const outcome = await new Promise<{ state: 'locked' | 'held' | 'failed' | 'unsupported'; code?: number | null }>(
    (resolve) => {
      helper.once('error', () => resolve({ state: 'unsupported' })); // no flock(1) on this system
      helper.stdout.once('data', () => resolve({ state: 'locked' }));
      helper.once('exit', (code) => resolve({ state: code === 1 ? 'held' : 'failed', code }));
    },
  );
  if (outcome.state === 'unsupported') {
    options.onUnsupported?.('flock(1) from util-linux is not available');
    return { locked: false, release: async () => undefined };
  }
  if (outcome.state === 'failed') {
    throw new Error(`DATA_DIR ${dataDir} cannot be locked (flock exit ${outcome.code}): ${stderr.trim()}`);
  }
  if (outcome.state === 'held') {
    let holder = '';
    try {
      holder = readFileSync(file, 'utf8').trim();
    } catch {
      // unreadable: the message goes without the pid
    }
    throw new DataDirLockedError(dataDir, /^\d+$/.test(holder) ? holder : '');
  }
  // flock locks are advisory: writing our pid into the file tells the next one who holds it.
  writeFileSync(file, `${process.pid}\n`);
  helper.once('exit', () => {
    if (!releasing) options.onLost?.();
  });
  // The helper and its pipes must not keep this process alive on their own.
  helper.unref();
  for (const stream of [helper.stdin, helper.stdout, helper.stderr])
    (stream as unknown as { unref?: () => void }).unref?.();
  return {
    locked: true,
    async release() {
      if (releasing) return;
      releasing = true;
      // Waiting for the helper must keep this process alive: unref'd, it let a process whose
      // other handles were closed end in the middle of `await close()`, with exit code 0 and
      // nothing after it run (the gateway bench lost its JSON line that way).
      helper.ref();
      helper.stdin.end();
      await exited;
    },
  };
}
