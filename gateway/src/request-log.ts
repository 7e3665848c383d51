import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from './logger';

const SAFE_ID = /^[\w.-]{1,64}$/;

export type IdentifiedRequest = IncomingMessage & { id?: string };

/**
 * Gives a request an id (kept from X-Request-Id when sane, echoed back and passed to the api)
 * and logs one line when it finishes. Only the path is logged: query strings and headers may
 * carry tokens.
 */
export function logRequest(logger: Logger, req: IdentifiedRequest, res: ServerResponse): void {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
  req.id = id;
  res.setHeader('x-request-id', id);
  const started = performance.now();
  const path = (req.url ?? '').split('?')[0];
  res.once('finish', () => {
    const level = res.statusCode >= 500 ? 'warn' : 'info';
    logger[level](
      {
        reqId: id,
        method: req.method,
        path,
        status: res.statusCode,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  });
}
