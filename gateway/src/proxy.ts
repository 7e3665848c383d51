import { Agent, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { createProxyMiddleware, type RequestHandler } from 'http-proxy-middleware';
import { HTTP_TIMEOUT_MS, type Envelope } from '@pm/shared';
import { pickLanguage, translate } from './locale-messages';
import type { Logger } from './logger';
import type { GatewayMetrics } from './metrics';

/** Proxied calls after which the caller's counters changed without an upstream event. */
const COUNTER_CHANGING_CALLS: { method: string; path: RegExp }[] = [
  { method: 'POST', path: /^\/base\/message\/hasRead(\/|\?|$)/ },
  { method: 'GET', path: /^\/im\/chatrecord\/delete\/unread(\/|\?|$)/ },
];
const SIGN_OUT = /^\/auth\/signOut(\/|\?|$)/;

export interface ProxyHooks {
  /** The caller's counters changed (a message read, chat unread cleared). */
  countersChanged(token: string): void;
  /** The caller signed out: its token is revoked. */
  signedOut(token: string): void;
}

type GatewayRequest = IncomingMessage & { id?: string; gatewayTimedOut?: boolean; proxyStartedAt?: bigint };

function bearer(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  return header?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim() ?? null;
}

function sendEnvelope(req: IncomingMessage, res: ServerResponse, status: 502 | 504, key: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const msg = translate(pickLanguage(req.headers.lang, req.headers['accept-language']), key);
  const body: Envelope<null> = { code: status, msg, data: null };
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/**
 * `/api/*` → the api (REST and uploads). Bodies stream through untouched; Authorization and
 * lang pass through; an api that does not answer within 10 s gives a 504 envelope and an api
 * that cannot be reached a 502 envelope, in the request's language.
 */
export function createApiProxy(opts: {
  apiUrl: string;
  logger: Logger;
  metrics: GatewayMetrics;
  hooks: ProxyHooks;
  timeoutMs?: number;
}): RequestHandler {
  const timeoutMs = opts.timeoutMs ?? HTTP_TIMEOUT_MS;
  const agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });

  const observe = (req: GatewayRequest, status: number) => {
    if (req.proxyStartedAt === undefined) return;
    const seconds = Number(process.hrtime.bigint() - req.proxyStartedAt) / 1e9;
    opts.metrics.proxyDuration.observe({ method: req.method ?? 'GET', status: String(status) }, seconds);
    req.proxyStartedAt = undefined;
  };

  return createProxyMiddleware<GatewayRequest, ServerResponse>({
    target: opts.apiUrl,
    changeOrigin: true,
    agent,
    xfwd: true,
    on: {
      proxyReq: (proxyReq: ClientRequest, req: GatewayRequest) => {
        req.proxyStartedAt = process.hrtime.bigint();
        if (req.id) proxyReq.setHeader('x-request-id', req.id);
        // The clock runs from when the request (an upload, say) has been sent in full.
        let timer: NodeJS.Timeout | null = null;
        const expire = () => {
          req.gatewayTimedOut = true;
          proxyReq.destroy(new Error('api did not answer in time'));
        };
        proxyReq.on('finish', () => {
          timer = setTimeout(expire, timeoutMs);
        });
        proxyReq.on('response', () => timer && clearTimeout(timer));
        proxyReq.on('close', () => timer && clearTimeout(timer));
      },
      proxyRes: (proxyRes: IncomingMessage, req: GatewayRequest) => {
        const status = proxyRes.statusCode ?? 0;
        observe(req, status);
        if (status < 200 || status >= 300) return;
        const token = bearer(req);
        if (!token) return;
        const path = req.url ?? '';
        // After the api has committed the change: the response has been read to its end.
        proxyRes.on('end', () => {
          if (COUNTER_CHANGING_CALLS.some((c) => c.method === req.method && c.path.test(path)))
            opts.hooks.countersChanged(token);
          if (req.method === 'POST' && SIGN_OUT.test(path)) opts.hooks.signedOut(token);
        });
      },
      error: (err, req, res) => {
        const timedOut = req.gatewayTimedOut === true;
        const status = timedOut ? 504 : 502;
        observe(req, status);
        opts.logger.warn(
          { reqId: req.id, method: req.method, err: err.message, status },
          timedOut ? 'api timed out' : 'api unavailable',
        );
        // A websocket upgrade has no ServerResponse; only HTTP callers get an envelope.
        if ('writeHead' in res)
          sendEnvelope(req, res, status, timedOut ? 'errors.gatewayTimeout' : 'errors.apiUnavailable');
        else res.destroy();
      },
    },
  });
}
