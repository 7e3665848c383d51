import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { redactUrl, type Logger } from './logger';

const SAFE_ID = /^[\w.-]{1,64}$/;

export type IdentifiedRequest = IncomingMessage & { id?: string };

/**
 * Gives a request an id (kept from X-Request-Id when sane, echoed back and passed to the api)
 * and logs one line when it finishes. Headers are never logged, and the URL only with tokens,
 * codes and passwords redacted (`redactUrl`).
 */
export function logRequest(logger: Logger, req: IdentifiedRequest, res: ServerResponse): void {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
  req.id = id;
  res.setHeader('x-request-id', id);
  const started = performance.now();
  const url = redactUrl(req.url ?? '');
  res.once('finish', () => {
    const level = res.statusCode >= 500 ? 'warn' : 'info';
    logger[level](
      {
        reqId: id,
        method: req.method,
        url,
        status: res.statusCode,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  });
}
