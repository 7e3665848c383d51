import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type Logger } from 'pino';
import { linesPerTurn, redactUrl } from '@pm/shared';

const SAFE_ID = /^[\w.-]{1,64}$/;
const INFO = 30;
const WARN = 40;

/** A request as the access log leaves it: its id (the caller's X-Request-Id when sane, else new). */
export type IdentifiedRequest = IncomingMessage & { id: string; originalUrl?: string };

/** The caller's X-Request-Id when sane (the gateway sends the id of its own line), else a new one. */
export function requestIdOf(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : nextRequestId();
}

/**
 * A new request id: still a UUID's shape, random per process in its first 18 hex digits and a
 * counter in its last 12 (issue 34: a `randomUUID` per call, 1.6 % of the api's busy time on the
 * cheapest calls; an id only has to tell a process's requests apart and not repeat across them).
 */
const ID_PREFIX = randomUUID().slice(0, 24);
/**
 * Starts at a random point, so the last 12 digits are not a run of zeros and a small number (the
 * log would then hold "000000…" in every line, and a six-digit code like it could not be told
 * from it: api/test/no-secrets-in-logs.test.ts).
 */
let idCounter = Math.floor(Math.random() * 0x800000000000);
/** Two hex digits of each byte: the counter's last byte is looked up, not formatted. */
const HEX2 = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
/** The id's first 34 characters (the prefix and the counter's first 10 digits), made again every 256 ids. */
let idHead = '';
function nextRequestId(): string {
  idCounter = (idCounter + 1) % 0x1000000000000;
  const low = idCounter & 0xff;
  // Issue 34, part 14: formatting the 12 digits on every call was 1 % of the cheapest calls.
  if (low === 0 || idHead === '') idHead = requestIdHead(idCounter);
  return idHead + HEX2[low];
}

/** The first 34 characters of the id of counter value `n`. */
function requestIdHead(n: number): string {
  return (
    ID_PREFIX +
    Math.floor(n / 256)
      .toString(16)
      .padStart(10, '0')
  );
}

/** The id of counter value `n`, in one piece: what nextRequestId gives, for its test. */
export function requestIdAt(n: number): string {
  return ID_PREFIX + n.toString(16).padStart(12, '0');
}

/** Tests only: the counter set to `n` (the next id is n + 1's). */
export function setRequestIdCounter(n: number): void {
  idCounter = n;
  idHead = '';
}

/** Tests only: a new id, as every request without a sane X-Request-Id gets one. */
export const newRequestId = nextRequestId;

/**
 * Writes one access log line: `{ reqId, method, url, status, ms, msg: "request" }`, `warn` for 5xx.
 * `reqId` is requestIdOf's (letters, digits, `_`, `.`, `-`): written without escaping.
 */
export type AccessLog = (
  reqId: string,
  method: string,
  url: string,
  status: number,
  ms: number,
  aborted: boolean,
) => void;

/**
 * The access log, with the same fields as the gateway's (gateway/src/request-log.ts): one line
 * per request when it finishes or is aborted. Headers and bodies are never logged, and the URL
 * only with tokens, codes and passwords redacted (`redactUrl`, shared with the gateway).
 *
 * Written by hand in pino's own line format (level, time, the logger's bindings, the fields,
 * msg) straight to the logger's destination: the same line pino-http wrote, at a fraction of its
 * cost per request (issue 34: no child logger, no redaction pass over fields that hold no secret).
 */
export function accessLog(log: Logger): AccessLog {
  const stream = (log as unknown as Record<symbol, { write(line: string): void }>)[pino.symbols.streamSym];
  const write = linesPerTurn(stream);
  // The logger's bindings as JSON (`"service":"api"`), between the time and the request's fields.
  const bindings = JSON.stringify(log.bindings()).slice(1, -1);
  const prefix = bindings ? `,${bindings}` : '';
  return (reqId, method, url, status, ms, aborted) => {
    const level = status >= 500 ? WARN : INFO;
    if (level < log.levelVal) return;
    write(
      // The method as it stands: node's parser takes only its known methods (capitals and '-').
      // The id as it stands: requestIdOf gives only [\w.-] (SAFE_ID or a new id), nothing JSON escapes.
      `{"level":${level},"time":${Date.now()}${prefix},"reqId":"${reqId}","method":"${method}",` +
        `"url":${JSON.stringify(redactUrl(url))},"status":${status},"ms":${ms}` +
        `${aborted ? ',"aborted":true' : ''},"msg":"request"}\n`,
    );
  };
}

/**
 * The access log as express middleware. The id is the caller's X-Request-Id when sane — the
 * gateway sends the id of its own line for the call, so one id follows a call through both logs
 * — else a new one; it is echoed back and set as `req.id` and `req.requestId`.
 */
export function requestLogger(line: AccessLog) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const started = Date.now();
    const id = requestIdOf(req.headers['x-request-id']);
    (req as IdentifiedRequest).id = id;
    (req as IncomingMessage & { requestId?: string }).requestId = id;
    res.setHeader('x-request-id', id);
    let written = false;
    const done = () => {
      if (written) return;
      written = true;
      const r = req as IdentifiedRequest;
      line(id, r.method ?? '', r.originalUrl ?? r.url ?? '', res.statusCode, Date.now() - started, !res.writableEnded);
    };
    res.once('finish', done);
    res.once('close', done);
    next();
  };
}
