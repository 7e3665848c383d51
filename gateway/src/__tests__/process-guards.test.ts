import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const guards = pathToFileURL(resolve(import.meta.dirname, '../process-guards.ts')).href;
const logger = pathToFileURL(resolve(import.meta.dirname, '../logger.ts')).href;

/** Runs `body` in a real Node process with the guards installed; `stop(code)` prints and exits. */
function runGuarded(body: string): { status: number | null; lines: Record<string, unknown>[]; stdout: string } {
  const script = `
    import { guardProcess } from '${guards}';
    import { createLogger } from '${logger}';
    import pino from 'pino';
    guardProcess(createLogger('info', pino.destination({ dest: 1, sync: true })), (code) => {
      console.log(JSON.stringify({ stopped: code }));
      process.exit(code);
    });
    ${body}
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: resolve(import.meta.dirname, '../..'),
    encoding: 'utf8',
    timeout: 20_000,
  });
  const lines = r.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { status: r.status, lines, stdout: r.stdout };
}

describe('process guards', () => {
  it('when a promise rejects unawaited, then it is logged and the process keeps serving', () => {
    const r = runGuarded(`
      Promise.reject(new Error('nobody awaited me'));
      setTimeout(() => console.log(JSON.stringify({ stillServing: true })), 100);
    `);
    expect(r.status).toBe(0);
    expect(r.lines).toContainEqual(expect.objectContaining({ level: 50, msg: 'unhandled promise rejection' }));
    expect(r.lines.find((l) => l.msg === 'unhandled promise rejection')?.err).toMatchObject({
      message: 'nobody awaited me',
    });
    expect(r.lines).toContainEqual({ stillServing: true });
  });

  it('when an exception is thrown that nothing catches, then it is logged and the process stops gracefully with code 1', () => {
    const r = runGuarded(`setTimeout(() => { throw new Error('boom'); }, 10);`);
    expect(r.lines).toContainEqual(
      expect.objectContaining({ level: 60, msg: 'uncaught exception: the gateway restarts' }),
    );
    expect(r.lines).toContainEqual({ stopped: 1 });
    expect(r.status).toBe(1);
  });
});
