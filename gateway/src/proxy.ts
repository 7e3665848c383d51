import { Agent, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { TLSSocket } from 'node:tls';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { HTTP_TIMEOUT_MS, TOKEN_REVOKED_HEADER, type Envelope } from '@pm/shared';
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
type GatewayRequest = IdentifiedRequest & { gatewayTimedOut?: boolean; proxyStartedAt?: bigint };

function bearer(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  return header?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim() ?? null;
}

function sendEnvelope(req: IncomingMessage, res: ServerResponse, status: 502 | 503 | 504, key: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const msg = translate(pickLanguage(req.headers.lang, req.headers['accept-language']), key);
  const body: Envelope<null> = { code: status, msg, data: null };
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (status === 503) headers['retry-after'] = '1';
  res.writeHead(status, headers);
  res.end(JSON.stringify(body));
}

/** The address of the peer on the other end of the socket (`::ffff:1.2.3.4` → `1.2.3.4`). */
export function peerAddress(req: IncomingMessage): string {
  return (req.socket.remoteAddress ?? 'unknown').replace(/^::ffff:(?=\d+\.)/, '');
}

/**
 * The api learns who called from the gateway alone: X-Forwarded-* are set from this connection,
 * replacing whatever the client sent (a client must not choose the address the api rate-limits).
 */
function setForwardedHeaders(req: IncomingMessage): void {
  const { headers } = req;
  delete headers.forwarded;
  delete headers['x-real-ip'];
  headers['x-forwarded-for'] = peerAddress(req);
  headers['x-forwarded-proto'] = req.socket instanceof TLSSocket ? 'https' : 'http';
  if (headers.host) headers['x-forwarded-host'] = headers.host;
  else delete headers['x-forwarded-host'];
  delete headers['x-forwarded-port'];
}

/** Proxies one call: `(req, res)` with `req.url` already relative to the api. */
export type ApiProxy = ((req: IncomingMessage, res: ServerResponse) => void) & { admission: ProxyAdmission };

/**
 * `/api/*` → the api (REST and uploads). Bodies stream through untouched; Authorization and
 * lang pass through; an api that does not answer within 10 s gives a 504 envelope and an api
 * that cannot be reached a 502 envelope, in the request's language. Beyond the limits (calls in
 * flight and waiting, per client address and overall) a call gets a 503 envelope at once.
 */
export function createApiProxy(opts: {
  apiUrl: string;
  logger: Logger;
  metrics: GatewayMetrics;
  hooks: ProxyHooks;
  timeoutMs?: number;
  limits?: Partial<ProxyLimits>;
}): ApiProxy {
  const timeoutMs = opts.timeoutMs ?? HTTP_TIMEOUT_MS;
  const limits = { ...DEFAULT_PROXY_LIMITS, ...opts.limits };
  const admission = new ProxyAdmission(limits);
  // Admission keeps the calls in flight within the pool, so no call waits inside the agent.
  const agent = new Agent({ keepAlive: true, maxSockets: limits.inFlight, maxFreeSockets: 64 });

  const observe = (req: GatewayRequest, status: number) => {
    if (req.proxyStartedAt === undefined) return;
    const seconds = Number(process.hrtime.bigint() - req.proxyStartedAt) / 1e9;
    opts.metrics.proxyDuration.observe({ method: req.method ?? 'GET', status: String(status) }, seconds);
    req.proxyStartedAt = undefined;
  };

  const middleware = createProxyMiddleware<GatewayRequest, ServerResponse>({
    target: opts.apiUrl,
    changeOrigin: true,
    agent,
    // X-Forwarded-* are set by setForwardedHeaders (xfwd would append to the client's own).
    xfwd: false,
    on: {
      // Runs when the outgoing request gets its socket, which may be after its headers went out:
      // headers are set on the incoming request before proxying, never here.
      proxyReq: (proxyReq: ClientRequest, req: GatewayRequest) => {
        req.proxyStartedAt = process.hrtime.bigint();
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
        // The api's word for the gateway alone: removed before the headers are copied to the browser.
        const revoked = proxyRes.headers[TOKEN_REVOKED_HEADER] !== undefined;
        delete proxyRes.headers[TOKEN_REVOKED_HEADER];
        const token = bearer(req);
        if (!revoked || !token || status < 200 || status >= 300) return;
        // After the api has committed the change: the response has been read to its end.
        proxyRes.on('end', () => opts.hooks.signedOut(token));
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

  const proxy = (req: GatewayRequest, res: ServerResponse) => {
    admission.enter(
      peerAddress(req),
      res,
      () => {
        setForwardedHeaders(req);
        if (req.id) req.headers['x-request-id'] = String(req.id);
        middleware(req, res).catch((err: Error) => {
          opts.logger.error({ reqId: req.id, err: err.message }, 'proxy failed');
          sendEnvelope(req, res, 502, 'errors.apiUnavailable');
        });
      },
      () => {
        opts.metrics.proxyRefused.inc();
        sendEnvelope(req, res, 503, 'errors.gatewayBusy');
      },
    );
  };
  return Object.assign(proxy, { admission });
}
