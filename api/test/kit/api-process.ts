// The api as its own process (`node --import tsx api/src/main.ts`, as `npm start` and the image
// run it), for tests of what only a process shows: its listening address, its exit, a kill -9.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../..');

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  return port;
}

export interface ApiProcess {
  url: string;
  child: ChildProcess;
  /** stdout so far (JSON log lines). */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** Waits for the first JSON log line on stdout that passes `test` (throws if the process ends first). */
  logLine(test: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Waits until GET /health answers 200 (throws if the process ends first). */
  healthy(): Promise<void>;
  /** Sends `signal` (SIGTERM by default) unless it has ended, and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts the api process with `env` on top of this process's environment (API_HOST 127.0.0.1,
 * LOG_LEVEL warn and a free API_PORT unless `env` says otherwise; a key set to undefined is removed).
 * `main`: another entry point (another checkout's api/src/main.ts, for a bench's before/after runs);
 * `nodeArgs`: node options before it (a bench's `--cpu-prof`, which NODE_OPTIONS refuses).
 */
export async function spawnApi(
  env: Record<string, string | undefined>,
  main = join(root, 'api/src/main.ts'),
  nodeArgs: string[] = [],
): Promise<ApiProcess> {
  const port = env.API_PORT ?? String(await freePort());
  const merged: NodeJS.ProcessEnv = {
    ...process.env,
    API_HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...env,
    API_PORT: port,
  };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete merged[key];
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', main], {
    cwd: root,
    env: merged,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async logLine(test) {
      for (;;) {
        const line = stdout
          .split('\n')
          .slice(0, -1) // the last piece may be a line still being written
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .find(test);
        if (line) return line;
        if (child.exitCode !== null) throw new Error(`api exited with ${child.exitCode}: ${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async healthy() {
      for (let i = 0; i < 1200; i++) {
        if (child.exitCode !== null) throw new Error(`api exited with ${child.exitCode}: ${stderr}`);
        const ok = await fetch(`${url}/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('api did not become healthy');
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
