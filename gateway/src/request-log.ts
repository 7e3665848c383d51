import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import { redactUrl, type Logger } from './logger';

const SAFE_ID = /^[\w.-]{1,64}$/;

/** A request as the access log leaves it: pino-http sets `req.id` (typed by pino-http on IncomingMessage). */
export type IdentifiedRequest = IncomingMessage & { loggedUrl?: string };

/**
 * The access log (pino-http), with the same fields as the api's (api/src/http/request-log.ts):
 * one line `{ reqId, method, url, status, ms, msg: "request" }` per request when it finishes
 * or is aborted, `warn` for 5xx. A request keeps the id it came with in X-Request-Id when sane
 * (else gets a new one); it is echoed back and the proxy passes it to the api, whose line for
 * the same call carries the same reqId. Headers and bodies are never logged, and the URL only
 * with tokens, codes and passwords redacted (`redactUrl`, shared with the api).
 */
export function requestLogger(logger: Logger): (req: IdentifiedRequest, res: ServerResponse) => void {
  const line = (req: IncomingMessage, res: ServerResponse, ms: number) => ({
    method: req.method,
    url: (req as IdentifiedRequest).loggedUrl,
    status: res.statusCode,
    ms,
    ...(res.writableEnded ? {} : { aborted: true }),
  });
  const middleware = pinoHttp({
    logger,
    genReqId: (req, res) => {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader('x-request-id', id);
      return id;
    },
    // Only the fields above: no req/res objects (they would carry headers).
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'reqId', responseTime: 'ms' },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'warn' : 'info'),
    customSuccessObject: (req, res, value: { ms: number }) => line(req, res, value.ms),
    customErrorObject: (req, res, _err, value: { ms: number }) => line(req, res, value.ms),
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request',
  });
  return (req, res) => {
    // As the browser asked for it: the proxy rewrites req.url (/api/x → /x) before the line is written.
    req.loggedUrl = redactUrl(req.url ?? '');
    middleware(req, res);
  };
}
