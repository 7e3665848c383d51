import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { redactUrl } from '@pm/shared';

const SAFE_ID = /^[\w.-]{1,64}$/;

/**
 * The access log (pino-http), with the same fields as the gateway's (gateway/src/request-log.ts):
 * one line `{ reqId, method, url, status, ms, msg: "request" }` per request when it finishes or
 * is aborted, `warn` for 5xx. The id is the caller's X-Request-Id when sane — the gateway sends
 * the id of its own line for the call, so one id follows a call through both logs — else a new
 * one; it is echoed back and set as `req.requestId`. Headers and bodies are never logged, and
 * the URL only with tokens, codes and passwords redacted (`redactUrl`, shared with the gateway).
 */
export function requestLogger(log: Logger) {
  const line = (req: IncomingMessage, res: ServerResponse, ms: number) => ({
    method: req.method,
    url: redactUrl((req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? ''),
    status: res.statusCode,
    ms,
    ...(res.writableEnded ? {} : { aborted: true }),
  });
  return pinoHttp({
    logger: log,
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
}
