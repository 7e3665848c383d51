import type { Logger } from './logger';

/**
 * Last line of defence; the request paths themselves must not throw. A rejected promise nobody
 * awaited is logged and the gateway keeps serving: it unwound nothing half-done. An uncaught
 * exception may have left any state half-changed, so it is logged and `stop` ends the process
 * gracefully (tabs are told and reconnect); `npm start` or the orchestrator restarts it.
 */
export function guardProcess(logger: Logger, stop: (code: number) => void): void {
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason instanceof Error ? reason : String(reason) }, 'unhandled promise rejection');
  });
  process.on('uncaughtException', (err, origin) => {
    logger.fatal({ err, origin }, 'uncaught exception: the gateway restarts');
    logger.flush();
    stop(1);
  });
}
