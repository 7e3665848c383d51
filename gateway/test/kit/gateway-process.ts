// A real gateway PROCESS (gateway/src/main.ts) for tests that need one: load that could kill it,
// its log output, its exit.
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const root = resolve(import.meta.dirname, '../../..');

export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  /** Every JSON log line the process wrote to stdout so far. */
  logs: Record<string, unknown>[];
  /** True while the process runs. */
  alive(): boolean;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `gateway/src/main.ts` on a free port with `env` added and waits for its "listening" line. */
export async function spawnGateway(env: Record<string, string>): Promise<GatewayProcess> {
  // `node --import tsx` (not the tsx CLI, which forks) so the pid we hold is the gateway itself.
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'gateway/src/main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (!alive()) return;
    // 'close': the process ended and its output has been read to the end.
    const exited = new Promise((r) => child.once('close', r));
    child.kill(signal);
    await exited;
  };
  const port = await new Promise<number>((resolvePort, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const log = JSON.parse(line) as Record<string, unknown>;
      logs.push(log);
      if (log.msg === 'gateway listening' && typeof log.port === 'number') resolvePort(log.port);
    });
    child.once('exit', (code) => reject(new Error(`gateway exited with ${code}: ${stderr}`)));
  }).catch(async (err: unknown) => {
    await stop('SIGKILL');
    throw err;
  });
  return { url: `http://127.0.0.1:${port}`, child, logs, alive, stop };
}
