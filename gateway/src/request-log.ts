import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino from 'pino';
import { linesPerTurn } from '@pm/shared';
import { redactUrl, type Logger } from './logger';

const SAFE_ID = /^[\w.-]{1,64}$/;
const INFO = 30;
const WARN = 40;

/** A request as the access log leaves it: its id and the URL as the browser asked for it, redacted. */
export type IdentifiedRequest = IncomingMessage & { id?: string; loggedUrl?: string };

/**
 * The access log, with the same fields as the api's (api/src/http/request-log.ts): one line
 * `{ reqId, method, url, status, ms, msg: "request" }` per request when it finishes or is
 * aborted, `warn` for 5xx. A request keeps the id it came with in X-Request-Id when sane (else
 * gets a new one); it is echoed back and the proxy passes it to the api, whose line for the same
 * call carries the same reqId. Headers and bodies are never logged, and the URL only with
 * tokens, codes and passwords redacted (`redactUrl`, shared with the api).
 *
 * Written by hand in pino's own line format (level, time, the logger's bindings, the fields,
 * msg) straight to the logger's destination: the line pino-http wrote, at a fraction of its cost
 * per request (issue 34: no child logger, no redaction pass over fields that hold no secret).
 */
export function requestLogger(
  logger: Logger,
): (req: IdentifiedRequest, res: ServerResponse, idOnAnswer?: boolean) => void {
  const stream = (logger as unknown as Record<symbol, { write(line: string): void }>)[pino.symbols.streamSym];
  const writeLine = linesPerTurn(stream);
  // The logger's bindings as JSON (`"service":"gateway"`), between the time and the request's fields.
  const bindings = JSON.stringify(logger.bindings()).slice(1, -1);
  const prefix = bindings ? `,${bindings}` : '';
  // `idOnAnswer` false: the caller writes X-Request-Id with the answer's head itself (the proxy).
  return (req, res, idOnAnswer = true) => {
    const started = Date.now();
    // As the browser asked for it: the proxy rewrites req.url (/api/x → /x) before the line is written.
    req.loggedUrl = redactUrl(req.url ?? '');
    const incoming = req.headers['x-request-id'];
    req.id = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
    if (idOnAnswer) res.setHeader('x-request-id', req.id);
    // 'close' comes once per response: after 'finish' when it was answered, alone when it was cut off.
    res.once('close', () => {
      const level = res.statusCode >= 500 ? WARN : INFO;
      if (level < logger.levelVal) return;
      const time = Date.now();
      writeLine(
        `{"level":${level},"time":${time}${prefix},"reqId":${JSON.stringify(req.id)},"method":${JSON.stringify(req.method)},` +
          `"url":${JSON.stringify(req.loggedUrl)},"status":${res.statusCode},"ms":${time - started}` +
          `${res.writableEnded ? '' : ',"aborted":true'},"msg":"request"}\n`,
      );
    });
  };
}
