import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { TLSSocket } from 'node:tls';
import { Pool, type Dispatcher } from 'undici';
import { HTTP_TIMEOUT_MS, TOKEN_REVOKED_HEADER, type Envelope } from '@pm/shared';
import { ApiTargets, neverConnected } from './api-targets';
import { pickLanguage, translate } from './locale-messages';
import type { Logger } from './logger';
import type { GatewayMetrics } from './metrics';
import type { IdentifiedRequest } from './request-log';
import { DEFAULT_PROXY_LIMITS, ProxyAdmission, type ProxyLimits } from './proxy-admission';

/**
 * What the proxy tells the gateway. It knows no feature paths: the api marks an answer that
 * revoked the caller's token, and counters change through numbered pushes on the upstream.
 */
export interface ProxyHooks {
  /** The call revoked the caller's token (sign-out). */
  signedOut(token: string): void;
}

// `req.id` is the access log's request id (request-log.ts).
type GatewayRequest = IdentifiedRequest;

/**
 * Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection, not the call, so they are
 * never passed on in either direction (Node frames each side itself; the api link is kept alive).
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
/**
 * What the browser sends that is never passed to the api: the hop-by-hop headers, and the
 * forwarding headers, which the gateway sets itself from the connection (a client must not choose
 * the address the api rate-limits), and the host, which is the api's own.
 */
const NOT_TO_API = new Set([
  ...HOP_BY_HOP,
  'host',
  'forwarded',
  'x-real-ip',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'x-forwarded-port',
  'x-request-id',
  // The gateway's own server has answered 100 Continue to the browser already (node:http does);
  // the body reaches the api as it comes, so the api is not asked again.
  'expect',
]);

function bearer(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  return header?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim() ?? null;
}

function sendEnvelope(
  req: IncomingMessage,
  res: ServerResponse,
  head: string[],
  status: 502 | 503 | 504,
  key: string,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const msg = translate(pickLanguage(req.headers.lang, req.headers['accept-language']), key);
  const body: Envelope<null> = { code: status, msg, data: null };
  const headers = [...head, 'content-type', 'application/json; charset=utf-8'];
  if (status === 503) headers.push('retry-after', '1');
  res.writeHead(status, headers);
  res.end(JSON.stringify(body));
}

/** The address of the peer on the other end of the socket (`::ffff:1.2.3.4` → `1.2.3.4`). */
export function peerAddress(req: IncomingMessage): string {
  return (req.socket.remoteAddress ?? 'unknown').replace(/^::ffff:(?=\d+\.)/, '');
}

/**
 * The headers of the call to the api, made in one pass: the browser's, less NOT_TO_API, then the
 * api's own host, and X-Forwarded-* from this connection (the api learns who called from the
 * gateway alone) and the request id of the access log.
 */
function headersToApi(req: GatewayRequest, client: string, host: string): string[] {
  const headers: string[] = ['host', host];
  const from = req.headers;
  for (const name in from) {
    if (NOT_TO_API.has(name)) continue;
    const value = from[name]!;
    if (typeof value === 'string') headers.push(name, value);
    else for (const one of value) headers.push(name, one);
  }
  headers.push('x-forwarded-for', client, 'x-forwarded-proto', req.socket instanceof TLSSocket ? 'https' : 'http');
  if (from.host) headers.push('x-forwarded-host', from.host);
  if (req.id) headers.push('x-request-id', req.id);
  return headers;
}

/** Bodies up to this size are read whole before the call goes to the api; larger ones stream. */
const SMALL_BODY_BYTES = 64 * 1024;

/** The body's length when it is declared and small (read whole first), else 0 (none, or streamed). */
function smallBodyLength(req: IncomingMessage): number {
  const length = req.headers['content-length'];
  if (length === undefined || req.headers['transfer-encoding'] !== undefined) return 0;
  const n = Number(length);
  return n > 0 && n <= SMALL_BODY_BYTES ? n : 0;
}

/**
 * The browser's body for the api, or null when the call has none. Read from the browser only
 * once the api's connection asks for it (a call whose api refused the connection is sent to the
 * next one whole), and the api link stopping never destroys the browser's request: its answer,
 * a 502 or 504 envelope, still goes out on that connection.
 */
function bodyOf(req: IncomingMessage): Readable | null {
  const length = req.headers['content-length'];
  if (req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) return null;
  let started = false;
  const body: Readable = new Readable({
    read() {
      if (!started) {
        started = true;
        req.on('data', (chunk: Buffer) => {
          if (!body.push(chunk) && !body.destroyed) req.pause();
        });
        req.once('end', () => body.push(null));
        req.once('error', (err) => body.destroy(err));
      }
      req.resume();
    },
    destroy(err, callback) {
      // What the browser still sends is read and dropped.
      if (started) req.resume();
      callback(err);
    },
  });
  return body;
}

/**
 * How long a kept-alive connection to the api may sit idle in the pool before the gateway closes
 * it: under the api's own keep-alive timeout (Node's default, 5 s), so the api never closes a
 * connection the gateway is about to send a call on; a call written just as the api closed that
 * socket failed with ECONNRESET, answered 502 (issue 31; reproduced with the api's keep-alive
 * timeout and a busy gateway: 4 of 60 calls). The pool also honours the api's `Keep-Alive:
 * timeout=N` hint (less a margin), and never cuts a call in progress by this timeout.
 */
export const API_IDLE_SOCKET_MS = 4000;

/**
 * Proxies one call: `(req, res)` with `req.url` already relative to the api. The answer's head is
 * written by the proxy in ONE writeHead (issue 34): the gateway's own headers (`answerHeaders`,
 * the request id) with the api's, the api's winning; nothing may be set on `res` before.
 */
export type ApiProxy = ((req: IncomingMessage, res: ServerResponse) => void) & { admission: ProxyAdmission };

/**
 * `/api/*` → the api (REST and uploads). Bodies stream through untouched; Authorization and
 * lang pass through; an api that does not answer within 10 s gives a 504 envelope and an api
 * that cannot be reached a 502 envelope, in the request's language. Beyond the limits (calls in
 * flight and waiting, per client address and overall) a call gets a 503 envelope at once.
 *
 * One dispatch per call on undici's `Pool` of kept-alive api connections (issue 34:
 * http-proxy-middleware's layers cost the gateway about as much again as relaying the call
 * itself, and node:http's client and agent most of what was left above the pipe; README, issue 34
 * part 8). The answer is passed on as undici reads it: its head in one writeHead, its body chunk
 * by chunk with the browser's backpressure.
 *
 * With several api processes (API_URLS, api-targets.ts) a call goes to the first one up; its body
 * is sent only once the connection is made, so a call whose api refuses the connection (killed)
 * is sent to the next one instead, unchanged: nothing reached the first, nothing is done twice.
 */
export function createApiProxy(opts: {
  apiUrl: string | ApiTargets;
  logger: Logger;
  metrics: GatewayMetrics;
  hooks: ProxyHooks;
  timeoutMs?: number;
  limits?: Partial<ProxyLimits>;
  /** How long an idle connection to the api stays in the pool (tests). */
  idleSocketMs?: number;
  /** Headers of every answer (name, value, … in lower case: the security headers), the api's own win. */
  answerHeaders?: readonly string[];
}): ApiProxy {
  const answerHeaders = opts.answerHeaders ?? [];
  /** The gateway's part of an answer's head: the fixed headers and the request id. */
  const ownHead = (req: GatewayRequest): string[] =>
    req.id ? [...answerHeaders, 'x-request-id', req.id] : [...answerHeaders];
  const timeoutMs = opts.timeoutMs ?? HTTP_TIMEOUT_MS;
  const limits = { ...DEFAULT_PROXY_LIMITS, ...opts.limits };
  const admission = new ProxyAdmission(limits);
  const idleMs = opts.idleSocketMs ?? API_IDLE_SOCKET_MS;
  const targets = typeof opts.apiUrl === 'string' ? new ApiTargets([opts.apiUrl]) : opts.apiUrl;
  const addresses = new Map(
    targets.urls.map((url) => {
      const target = new URL(url);
      return [
        url,
        {
          // Admission keeps the calls in flight within the pool's connections, so no call waits
          // inside it. One call per connection at a time (no pipelining); an idle connection is
          // closed after `idleMs`, or sooner when the api's Keep-Alive hint says so.
          pool: new Pool(target.origin, {
            connections: limits.inFlight,
            pipelining: 1,
            keepAliveTimeout: idleMs,
            keepAliveMaxTimeout: idleMs,
            headersTimeout: 0,
            bodyTimeout: 0,
          }),
          // The api sees its own host (as changeOrigin did), and paths under the api URL's own path.
          host: target.host,
          basePath: target.pathname.replace(/\/$/, ''),
        },
      ];
    }),
  );

  // Each series of the duration metric found once by its labels, not by hashing them per call.
  const durationSeries = new Map<string, { observe(seconds: number): void }>();
  const observerOf = (method: string, status: number) => {
    const key = `${method} ${status}`;
    let observer = durationSeries.get(key);
    if (!observer) {
      observer = opts.metrics.proxyDuration.labels({ method, status: String(status) });
      durationSeries.set(key, observer);
    }
    return observer;
  };
  /** `tried`: the apis that refused this call's connection already. */
  const forward = (
    req: GatewayRequest,
    res: ServerResponse,
    client: string,
    tried: string[] = [],
    small: Buffer | null = null,
  ) => {
    const url = targets.several ? targets.inOrder().find((u) => !tried.includes(u))! : targets.urls[0];
    const { pool, host, basePath } = addresses.get(url)!;
    const method = req.method ?? 'GET';
    const startedAt = process.hrtime.bigint();
    let observed = false;
    const observe = (status: number) => {
      if (observed) return;
      observed = true;
      observerOf(method, status).observe(Number(process.hrtime.bigint() - startedAt) / 1e9);
    };
    // The clock runs from when the request (an upload, say) has been sent in full.
    let timer: NodeJS.Timeout | null = null;
    let timedOut = false;
    const stopClock = () => {
      if (timer) clearTimeout(timer);
      timer = null;
    };
    /** Stops the api call (set once the request is on a connection). */
    let abort: ((err?: Error) => void) | null = null;
    let connected = false;
    /** The browser went away before its answer was complete. */
    let gone = false;
    let answered = false;
    /** The browser gone before the answer's head: the api's answer is read and dropped. */
    let discard = false;
    let token: string | null = null;
    const handler: Dispatcher.DispatchHandler & { onRequestSent(): void } = {
      onConnect(abortCall) {
        connected = true;
        abort = abortCall;
        if (gone) abortCall(new Error('the browser went away'));
      },
      onRequestSent() {
        timer = setTimeout(() => {
          timedOut = true;
          abort?.(new Error('api did not answer in time'));
        }, timeoutMs);
      },
      onHeaders(status, raw, resume, statusText) {
        if (status < 200) return true;
        stopClock();
        answered = true;
        observe(status);
        if (res.destroyed) {
          discard = true;
          return true;
        }
        const own = ownHead(req);
        const head: string[] = [];
        const names: string[] = [];
        for (let i = 0; i < raw.length; i += 2) {
          const name = raw[i].toString('latin1').toLowerCase();
          // The api's word for the gateway alone: never copied to the browser.
          if (name === TOKEN_REVOKED_HEADER) {
            if (status >= 200 && status < 300) token = bearer(req);
            continue;
          }
          if (HOP_BY_HOP.has(name)) continue;
          names.push(name);
          head.push(name, (raw[i + 1] as Buffer).toString('latin1'));
        }
        const mine: string[] = [];
        for (let i = 0; i < own.length; i += 2) if (!names.includes(own[i])) mine.push(own[i], own[i + 1]);
        res.writeHead(status, statusText || undefined, mine.length ? [...mine, ...head] : head);
        res.on('drain', () => resume());
        return true;
      },
      onData(chunk) {
        if (discard) return true;
        return res.write(chunk);
      },
      onComplete() {
        if (!discard) res.end();
        // After the api has committed the change: its answer has been read to its end.
        if (token) opts.hooks.signedOut(token);
      },
      onError(err) {
        stopClock();
        // The api's answer broken off midway: the browser's is too (its length would lie).
        if (answered) {
          res.destroy();
          return;
        }
        // The browser went away first: nothing to answer, nothing to report.
        if ((gone || res.destroyed) && !timedOut) return;
        if (!connected && neverConnected(err)) {
          targets.markDown(url, 'connection refused');
          if (targets.urls.some((u) => u !== url && !tried.includes(u))) {
            forward(req, res, client, [...tried, url], small);
            return;
          }
        } else if (targets.several) void targets.check(url);
        const status = timedOut ? 504 : 502;
        observe(status);
        opts.logger.warn(
          { reqId: req.id, method: req.method, err: err.message, status },
          timedOut ? 'api timed out' : 'api unavailable',
        );
        sendEnvelope(req, res, ownHead(req), status, timedOut ? 'errors.gatewayTimeout' : 'errors.apiUnavailable');
      },
    };
    pool.dispatch(
      {
        origin: url,
        method: method as Dispatcher.HttpMethod,
        path: basePath + (req.url ?? '/'),
        headers: headersToApi(req, client, host),
        body: small ?? bodyOf(req),
        headersTimeout: 0,
        bodyTimeout: 0,
      },
      handler,
    );
    // The browser gone before its answer was complete: stop the api call (frees the connection).
    res.on('close', () => {
      if (res.writableFinished) return;
      gone = true;
      abort?.(new Error('the browser went away'));
    });
  };

  const proxy = (req: GatewayRequest, res: ServerResponse) => {
    const client = peerAddress(req);
    admission.enter(
      client,
      res,
      () => {
        try {
          const length = smallBodyLength(req);
          if (length === 0) return forward(req, res, client);
          // A small body (a JSON call) is read whole first and sent in one write with the head
          // (undici's stream path costs more than the call itself); a browser that goes away meanwhile
          // never reaches the api.
          const chunks: Buffer[] = [];
          req.on('data', (chunk: Buffer) => chunks.push(chunk));
          req.once('end', () => {
            if (!res.destroyed) forward(req, res, client, [], Buffer.concat(chunks));
          });
        } catch (err) {
          opts.logger.error({ reqId: req.id, err: (err as Error).message }, 'proxy failed');
          sendEnvelope(req, res, ownHead(req), 502, 'errors.apiUnavailable');
        }
      },
      () => {
        opts.metrics.proxyRefused.inc();
        sendEnvelope(req, res, ownHead(req), 503, 'errors.gatewayBusy');
      },
    );
  };
  return Object.assign(proxy, { admission });
}
