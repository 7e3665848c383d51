import type { RequestListener } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Language } from '@pm/shared';
import type { AppServices } from '../app-services';
import type { ApiMetrics } from '../metrics/api-metrics';
import { answerRoute, envelopeOf } from './answer-route';
import { AppError } from './app-error';
import type { ApiModule, ApiRoute } from './define-route';
import { errorAnswer } from './error-answer';
import { FastPath, type DurationSeries, type RequestDurations } from './fast-path';
import { accessLog, requestLogger } from './request-log';
import { requestLanguage } from './translate';
import { writeEnvelope, writeError } from './write-envelope';

declare module 'express-serve-static-core' {
  interface Request {
    requestId: string;
    lang: Language;
  }
}

/** A declared route as an express handler. */
function runRoute(route: ApiRoute, services: AppServices, checkAnswers: boolean) {
  return async (req: Request, res: Response): Promise<void> => {
    // The declared path (`/complain/info/:id`), for the request-duration metric.
    res.locals.route = route.path;
    const { lang, requestId } = req;
    const data = await answerRoute(route, services, checkAnswers, {
      requestId,
      lang,
      authorization: req.headers.authorization,
      params: req.params,
      query: req.query,
      body: req.body,
      req,
      res,
    });
    if (route.answer === 'raw' || res.headersSent) return;
    writeEnvelope(req, res, 200, envelopeOf(route, lang, data));
  };
}

/** What an express path (`/complain/query/id/:id`, `/files/*rest`) matches, for `createApp`'s shadow check. */
export function routePattern(path: string): RegExp {
  const escaped = path.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/:\w+/g, '[^/]+').replace(/\*\w+/g, '.+')}/?$`, 'i');
}

/**
 * The request-duration metric: each series found once by its labels, not by hashing them on every
 * call (issue 34); the fast path keeps the series of each of its routes by status (`series`).
 */
export function requestDurations(metrics: ApiMetrics | undefined): RequestDurations {
  const all = new Map<string, DurationSeries>();
  const series = (method: string, status: number, route: string): DurationSeries | null => {
    if (!metrics) return null;
    const key = `${method} ${status} ${route}`;
    let found = all.get(key);
    if (!found) {
      found = metrics.httpDuration.series({ method, route, status: String(status) });
      all.set(key, found);
    }
    return found;
  };
  return Object.assign(
    (method: string, status: number, route: string, seconds: number): void =>
      series(method, status, route)?.observe(seconds),
    { series },
  );
}

/** Observes each request's duration by its declared route ("(none)" for a 404). */
function measureRequests(observe: RequestDurations) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    res.once('finish', () => {
      const route = typeof res.locals.route === 'string' ? res.locals.route : '(none)';
      observe(req.method, res.statusCode, route, (performance.now() - started) / 1000);
    });
    next();
  };
}

/**
 * The api's request listener: the fast path (fast-path.ts) answers the hot calls it can, and
 * everything else goes to the express app: request id and log → metrics → lang → body parsers →
 * every module's routes → 404 envelope → the one error mapper. Extra routes (health, openapi)
 * come in through `modules`.
 */
export function createApp(
  services: AppServices,
  modules: ApiModule[],
  options: { metrics?: ApiMetrics; checkAnswers?: boolean } = {},
): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  // The gateway overwrites X-Forwarded-For with the browser's address; the sign-in limits count
  // per that address, not per gateway. Only the configured gateway hops are believed
  // (TRUST_PROXY, loopback by default): anyone else's header is ignored.
  app.set('trust proxy', services.config.trustProxy);
  const checkAnswers = options.checkAnswers ?? false;
  const log = accessLog(services.log);
  const durations = requestDurations(options.metrics);

  // Request id and access log (no headers, no bodies; tokens, codes and passwords in the URL
  // redacted, as in the gateway's log).
  app.use(requestLogger(log));
  if (options.metrics) app.use(measureRequests(durations));
  // Answers of COMPRESS_FROM (8 KB) or more in gzip or brotli when the browser accepts it (JSON
  // lists shrink about tenfold; a smaller answer fits TCP's first window as it is): envelopes in
  // writeEnvelope, raw answers through `compressed` (issue 34, README "Part 31").
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
  const earlier: { method: string; path: string; pattern: RegExp }[] = [];
  const fast = new FastPath({ services, checkAnswers, log, durations });
  for (const mod of modules) {
    for (const route of mod.routes) {
      const handler = runRoute(route, services, checkAnswers);
      router[route.method](route.path, handler);
      const method = route.method.toUpperCase();
      const key = `${method} ${route.path}`;
      const before = earlier.filter((e) => e.method === method);
      if (!/[:*]/.test(route.path) && !exact.has(key) && !before.some((e) => e.pattern.test(route.path)))
        exact.set(key, handler);
      fast.add(route, before);
      earlier.push({ method, path: route.path, pattern: routePattern(route.path) });
    }
  }
  app.use((req, res, next) => {
    const handler = exact.get(`${req.method} ${req.path}`);
    if (!handler) return next();
    req.params = {};
    handler(req, res).catch(next);
  });
  app.use(router);

  app.use((req, res) => writeError(req, res, req.lang ?? 'en', new AppError(404, 'errors.routeNotFound')));

  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    writeError(req, res, req.lang ?? 'en', errorAnswer(err, services, req.requestId));
  });
  return (req, res) => {
    if (!fast.answer(req, res)) app(req, res);
  };
}
