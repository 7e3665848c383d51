// The api and the gateway as real processes (`node --import tsx <tier>/src/main.ts`, as npm start
// and the images run them), with their JSON log lines and other output kept for assertions.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort, repoRoot } from './product';

export interface ServiceProcess {
  child: ChildProcess;
  /** Every JSON line written to stdout so far. */
  lines: Record<string, unknown>[];
  /** stdout lines that are not JSON, and all of stderr. */
  text(): string;
  alive(): boolean;
  /** Resolves with the exit code (or signal name) once the process has ended and its output is read. */
  exited: Promise<number | string>;
  /** Waits for a log line matching `test`, failing early if the process ends first. */
  waitForLine(test: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

/** Starts `command` (default: the tier's main.ts through tsx) with `env` on top of this process's environment. */
export function spawnService(
  tier: 'api' | 'gateway',
  env: Record<string, string | undefined>,
  options: { command?: string[]; spawn?: SpawnOptions } = {},
): ServiceProcess {
  const [cmd, ...args] = options.command ?? [
    process.execPath,
    '--import',
    'tsx',
    join(repoRoot, tier, 'src', 'main.ts'),
  ];
  const child = spawn(cmd, args, {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'info', ...env } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options.spawn,
  });
  const lines: Record<string, unknown>[] = [];
  let text = '';
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      text += `${line}\n`;
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    lines,
    text: () => text,
    alive,
    exited,
    async waitForLine(test, timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = lines.find(test);
        if (found) return found;
        if (!alive()) {
          await exited;
          const late = lines.find(test);
          if (late) return late;
          throw new Error(`${tier} ended (${child.exitCode ?? child.signalCode}) before the line came:\n${text}`);
        }
        if (Date.now() > deadline) throw new Error(`${tier}: no such line within ${timeoutMs} ms:\n${text}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async stop(signal = 'SIGTERM') {
      if (alive()) child.kill(signal);
      return exited;
    },
  };
}

/** A fresh port for each of `names`. */
export async function freePorts<K extends string>(...names: K[]): Promise<Record<K, number>> {
  const out = {} as Record<K, number>;
  for (const n of names) out[n] = await freePort();
  return out;
}
