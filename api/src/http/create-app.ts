import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import compression from 'compression';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Language } from '@pm/shared';
import type { AppServices } from '../app-services';
import type { ApiMetrics } from '../metrics/api-metrics';
import { claimingDb, claimUploads, uploadsNamedIn } from '../modules/upload/upload.repository';
import { AppError } from './app-error';
import type { ApiModule, ApiRoute } from './define-route';
import type { AuthedContext, PublicContext } from './request-context';
import { requestLogger } from './request-log';
import { requestLanguage, translate } from './translate';
import { validationError } from './validation-message';

declare module 'express-serve-static-core' {
  interface Request {
    requestId: string;
    lang: Language;
  }
}

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

function bearerToken(req: Request): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return m ? m[1] : null;
}

/** Writes the envelope of an error in the request's language. */
export function sendError(res: Response, lang: Language, err: AppError): void {
  if (res.headersSent) return;
  const retryAfter = (err.data as { retryAfter?: unknown } | null)?.retryAfter;
  if ((err.status === 429 || err.status === 503) && typeof retryAfter === 'number')
    res.setHeader('retry-after', String(retryAfter));
  res.status(err.status);
  sendJson(res.req, res, { code: err.status, msg: translate(lang, err.messageKey, err.params), data: err.data });
}

/** Where `answer` has a field its schema's parse dropped (an object schema that forgot a field). */
function undeclaredField(answer: unknown, parsed: unknown, at = 'data'): string | null {
  if (Array.isArray(answer) && Array.isArray(parsed)) {
    for (const [i, item] of answer.entries()) {
      const found = undeclaredField(item, parsed[i], `${at}[${i}]`);
      if (found) return found;
    }
  } else if (answer && parsed && typeof answer === 'object' && typeof parsed === 'object') {
    for (const [key, value] of Object.entries(answer)) {
      if (value !== undefined && !(key in parsed)) return `${at}.${key}`;
      const found = undeclaredField(value, (parsed as Record<string, unknown>)[key], `${at}.${key}`);
      if (found) return found;
    }
  }
  return null;
}

/**
 * Tests only (`checkAnswers`): the answer must be exactly what the declaration says, no field
 * missing, mistyped or undeclared; otherwise the call fails with 500 and the log names the key.
 */
function checkAnswer(route: ApiRoute, data: unknown): void {
  const json: unknown = JSON.parse(JSON.stringify(data ?? null));
  const parsed = route.response.safeParse(json);
  const problem = parsed.success ? undeclaredField(json, parsed.data) : parsed.error.message;
  if (!problem) return;
  const message = `${route.key}: the answer differs from its declared response: ${problem}`;
  // On stderr too: test apis log nothing, and this is the line that says which declaration lies.
  process.stderr.write(`${message}\n`);
  throw new Error(message);
}

/** Envelopes from 1 KB to 64 KB are compressed here, at once, rather than through a stream. */
const COMPRESS_FROM = 1024;
const COMPRESS_UP_TO = 64 * 1024;
const BROTLI_FAST = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } };

/**
 * The compression middleware, for the answers that may need its stream: raw answers (files,
 * the OAuth token, the OpenAPI document) and envelopes over 64 KB. Fastest levels (brotli 1,
 * gzip 1): about a third of the CPU of the defaults for a 10-row list, its answer within 10 % of
 * their size (issue 34). Pictures and spreadsheets are not compressible and go as they are.
 * It is not in front of every call: its hooks on each answer cost more than a small envelope.
 */
const compress = compression({
  threshold: COMPRESS_FROM,
  level: 1,
  brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } },
});

/** Sets the compression middleware up on this answer (it calls back at once). */
function compressed(req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => compress(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
}

/**
 * Writes an envelope (a route's answer or an error). Most answers (a list page, a record) are a
 * few KB: compressed in one synchronous call (brotli 1: about 20 µs for a 10-row list) they cost
 * a fraction of the compression middleware's stream, which still handles larger answers (issue
 * 34). No ETag: the answers are personal and change with every push, and hashing each costs CPU.
 */
function sendJson(req: Request, res: Response, envelope: unknown): void {
  const text = JSON.stringify(envelope);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  if (text.length > COMPRESS_UP_TO) {
    compress(req, res, () => res.end(text));
    return;
  }
  if (text.length >= COMPRESS_FROM) {
    res.vary('Accept-Encoding');
    // brotli whenever accepted (as the compression middleware chooses), else gzip.
    const encoding = req.acceptsEncodings('br') === 'br' ? 'br' : req.acceptsEncodings('gzip', 'identity');
    if (encoding === 'br' || encoding === 'gzip') {
      const body = encoding === 'br' ? brotliCompressSync(text, BROTLI_FAST) : gzipSync(text, { level: 1 });
      res.setHeader('content-encoding', encoding);
      res.setHeader('content-length', body.length);
      res.end(body);
      return;
    }
  }
  res.setHeader('content-length', Buffer.byteLength(text));
  res.end(text);
}

/** Runs one declared route: token → permission (and staff permission) → tenant scope → validation → handler → envelope. */
function runRoute(route: ApiRoute, services: AppServices, checkAnswers: boolean) {
  return async (req: Request, res: Response): Promise<void> => {
    // The declared path (`/complain/info/:id`), for the request-duration metric.
    res.locals.route = route.path;
    const lang = req.lang;
    let log: PublicContext['log'] | undefined;
    const ctx: PublicContext = {
      requestId: req.requestId,
      lang,
      // Made when a handler first logs: most calls never do.
      get log() {
        return (log ??= services.log.child({ reqId: req.requestId }));
      },
      db: services.db,
      services,
      caller: null,
      tenant: null,
      t: (key, params) => translate(lang, key, params),
      req,
      res,
    };
    // Token.
    const token = bearerToken(req);
    if (token) {
      ctx.caller = await services.tokens.verify(token);
      if (!ctx.caller && route.permission !== 'public') throw AppError.unauthorized('errors.tokenInvalid');
    } else if (route.permission !== 'public') throw AppError.unauthorized();
    // Permission declared on the route.
    if (
      route.permission !== 'public' &&
      route.permission !== 'authenticated' &&
      !ctx.caller?.perms.has(route.permission)
    ) {
      throw AppError.forbidden();
    }
    // On a route staff share with residents, the staff permission it declares.
    if (route.staffPermission && ctx.caller?.kind === 'staff' && !ctx.caller.perms.has(route.staffPermission)) {
      throw AppError.forbidden();
    }
    // Tenant scope: always the caller's company and estate.
    if (ctx.caller) ctx.tenant = { companyId: ctx.caller.companyId, housingEstateId: ctx.caller.housingEstateId };
    if (route.permission !== 'public') (ctx as AuthedContext).token = token as string;
    // Validation.
    const input = { body: undefined as unknown, query: undefined as unknown, params: undefined as unknown };
    for (const where of ['params', 'query', 'body'] as const) {
      const schema = route[where];
      if (!schema) continue;
      const raw = where === 'body' ? (req.body ?? {}) : req[where];
      const parsed = schema.safeParse(raw);
      if (!parsed.success) throw validationError(parsed.error, where, raw, lang);
      input[where] = parsed.data;
    }
    // A write that names uploads saves a record referencing them: they are no draft's any more
    // (uploads never claimed are pruned, README "Data that stays bounded"). The claim is the last
    // step of the handler's own transaction, so it commits with the record or not at all.
    const named = route.method !== 'get' && input.body !== undefined ? uploadsNamedIn(JSON.stringify(input.body)) : [];
    const claiming = named.length > 0 ? claimingDb(services.db, named) : null;
    if (claiming) ctx.db = claiming.db;
    // Handler, then the envelope. A raw answer may be large: it goes through the compression stream.
    if (route.answer === 'raw') await compressed(req, res);
    const data = await route.handler(ctx, input);
    // A handler that wrote without a transaction (one statement): claimed after it.
    if (claiming && !claiming.claimed()) await claimUploads(services.db, named);
    if (route.answer === 'raw' || res.headersSent) return;
    if (checkAnswers) checkAnswer(route, data);
    sendJson(req, res, {
      code: 200,
      msg: translate(lang, route.successMessage ?? 'common.success'),
      data: data ?? null,
    });
  };
}

/** What an express path (`/complain/query/id/:id`, `/files/*rest`) matches, for `createApp`'s shadow check. */
function routePattern(path: string): RegExp {
  const escaped = path.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/:\w+/g, '[^/]+').replace(/\*\w+/g, '.+')}/?$`, 'i');
}

/** Observes each request's duration by its declared route ("(none)" for a 404). */
function measureRequests(metrics: ApiMetrics) {
  // Each series found once by its labels, not by hashing them on every call (issue 34).
  const series = new Map<string, { observe(seconds: number): void }>();
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    res.once('finish', () => {
      const route = typeof res.locals.route === 'string' ? res.locals.route : '(none)';
      const key = `${req.method} ${res.statusCode} ${route}`;
      let observer = series.get(key);
      if (!observer) {
        observer = metrics.httpDuration.labels({ method: req.method, route, status: String(res.statusCode) });
        series.set(key, observer);
      }
      observer.observe((performance.now() - started) / 1000);
    });
    next();
  };
}

/**
 * The express app: request id and log → metrics → compression → body parsers → lang → every
 * module's routes → 404 envelope → the one error mapper. Extra routes (health, openapi) come
 * in through `modules`.
 */
export function createApp(
  services: AppServices,
  modules: ApiModule[],
  options: { metrics?: ApiMetrics; checkAnswers?: boolean } = {},
): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  // The gateway overwrites X-Forwarded-For with the browser's address; the sign-in limits count
  // per that address, not per gateway. Only the configured gateway hops are believed
  // (TRUST_PROXY, loopback by default): anyone else's header is ignored.
  app.set('trust proxy', services.config.trustProxy);

  // Request id and access log (no headers, no bodies; tokens, codes and passwords in the URL
  // redacted, as in the gateway's log).
  app.use(requestLogger(services.log));
  if (options.metrics) app.use(measureRequests(options.metrics));
  // Answers of 1 KB or more in gzip or brotli when the browser accepts it (JSON lists shrink
  // about tenfold): envelopes in sendJson, raw answers through `compressed` (issue 34).
  // Language before the body parsers so their errors are translated too.
  app.use((req, _res, next) => {
    req.lang = requestLanguage(req.headers.lang);
    next();
  });
  const limit = services.config.bodyLimitBytes;
  app.use(express.json({ limit, type: ['application/json', 'application/*+json'] }));
  app.use(express.urlencoded({ limit, extended: false, parameterLimit: 100 }));

  const router = express.Router();
  // Calls of a path without parameters are found in one map lookup rather than by trying the
  // patterns of up to 200 routes in turn (issue 34); a path an earlier route's pattern would
  // take, and every other request (HEAD, a trailing slash, other letter case), go through the
  // router as before.
  const exact = new Map<string, ReturnType<typeof runRoute>>();
  const earlier: { method: string; pattern: RegExp }[] = [];
  for (const mod of modules) {
    for (const route of mod.routes) {
      const handler = runRoute(route, services, options.checkAnswers ?? false);
      router[route.method](route.path, handler);
      const method = route.method.toUpperCase();
      const key = `${method} ${route.path}`;
      if (
        !/[:*]/.test(route.path) &&
        !exact.has(key) &&
        !earlier.some((e) => e.method === method && e.pattern.test(route.path))
      )
        exact.set(key, handler);
      earlier.push({ method, pattern: routePattern(route.path) });
    }
  }
  app.use((req, res, next) => {
    const handler = exact.get(`${req.method} ${req.path}`);
    if (!handler) return next();
    req.params = {};
    handler(req, res).catch(next);
  });
  app.use(router);

  app.use((req, res) => sendError(res, req.lang ?? 'en', new AppError(404, 'errors.routeNotFound')));

  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const lang = req.lang ?? 'en';
    if (err instanceof AppError) return sendError(res, lang, err);
    const type = (err as { type?: string }).type;
    const status = (err as { status?: number }).status;
    if (type === 'entity.too.large' || status === 413)
      return sendError(res, lang, new AppError(413, 'errors.bodyTooLarge'));
    if (type === 'entity.parse.failed') return sendError(res, lang, new AppError(400, 'errors.malformedJson'));
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return sendError(
        res,
        lang,
        new AppError(status, 'validation.invalid', { detail: String((err as Error).message ?? '') }),
      );
    }
    if (isDatabaseUnavailable(err)) {
      services.log.warn({ err: (err as Error).message, reqId: req.requestId }, 'database unavailable');
      return sendError(
        res,
        lang,
        new AppError(503, 'errors.databaseUnavailable', {}, { retryAfter: DATABASE_RETRY_AFTER_S }),
      );
    }
    const dbStatus = databaseErrorStatus(err);
    if (dbStatus === 409) return sendError(res, lang, AppError.conflict());
    if (dbStatus === 400)
      return sendError(res, lang, new AppError(400, 'validation.invalid', { detail: 'value out of range' }));
    services.log.error({ err, reqId: req.requestId }, 'unhandled error');
    sendError(res, lang, new AppError(500, 'errors.internal'));
  });
  return app;
}
