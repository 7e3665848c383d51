import type { AppServices } from '../app-services';
import { AppError } from './app-error';

/** Postgres "data exception" (22xxx) and integrity (23xxx) errors are the caller's fault, not a 500. */
function databaseErrorStatus(err: unknown): number | null {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^22/.test(code)) return 400;
    if (code === '23505') return 409;
    if (typeof code === 'string' && /^23/.test(code)) return 400;
  }
  return null;
}

/** Seconds a caller is told to wait when PostgreSQL is not reachable (a restart takes a few). */
export const DATABASE_RETRY_AFTER_S = 5;

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);
const CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed|the database system is (starting up|shutting down|in recovery mode)/i;

/**
 * PostgreSQL is not reachable (refused, cut, restarting): a 503 the caller may retry, not a
 * 500. Codes: 08xxx connection exceptions, 57P01–57P03 (shut down by the administrator, crash
 * shutdown, cannot connect now), and the socket errors and messages of node-postgres.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length && seen.size < 16) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const { code, message, cause, errors } = e as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || /^08/.test(code) || /^57P0[123]$/.test(code)))
      return true;
    if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return false;
}

/**
 * The error answered for what a route threw (or the body parsers): the one place errors become
 * envelopes, for express and the fast path alike. Logs what is not the caller's doing.
 */
export function errorAnswer(err: unknown, services: AppServices, requestId: string | undefined): AppError {
  if (err instanceof AppError) return err;
  const type = (err as { type?: string }).type;
  const status = (err as { status?: number }).status;
  if (type === 'entity.too.large' || status === 413) return new AppError(413, 'errors.bodyTooLarge');
  if (type === 'entity.parse.failed') return new AppError(400, 'errors.malformedJson');
  if (typeof status === 'number' && status >= 400 && status < 500)
    return new AppError(status, 'validation.invalid', { detail: String((err as Error).message ?? '') });
  if (isDatabaseUnavailable(err)) {
    services.log.warn({ err: (err as Error).message, reqId: requestId }, 'database unavailable');
    return new AppError(503, 'errors.databaseUnavailable', {}, { retryAfter: DATABASE_RETRY_AFTER_S });
  }
  const dbStatus = databaseErrorStatus(err);
  if (dbStatus === 409) return AppError.conflict();
  if (dbStatus === 400) return new AppError(400, 'validation.invalid', { detail: 'value out of range' });
  services.log.error({ err, reqId: requestId }, 'unhandled error');
  return new AppError(500, 'errors.internal');
}
