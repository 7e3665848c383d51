import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Request, Response } from 'express';
import type { EndpointKey, Language } from '@pm/shared';
import type { AppServices } from '../app-services';
import { answerRoute, bodyKnown, type RouteCall } from './answer-route';
import { AppError } from './app-error';
import type { ApiRoute } from './define-route';
import { errorAnswer } from './error-answer';
import { requestIdOf, type AccessLog } from './request-log';
import { requestLanguage } from './translate';
import { envelopeText } from './kept-answer';
import { writeEnvelopeText, writeError } from './write-envelope';

/**
 * THE routes answered without express (issue 34): the calls every open screen makes again and
 * again (who am I, the live counters, a work-order list page, one work order, its status
 * totals). Express's router, its request and response helpers and its body parsers cost more
 * CPU than such a call's own work; here a call is matched by a map lookup (or one pattern),
 * its JSON body read in one piece, and its envelope written once with its Content-Length.
 *
 * A route may be listed when its handler uses only what the context gives (caller, tenant, db,
 * t, log) and never `ctx.req` / `ctx.res` (here they throw), and it answers an envelope (not a
 * raw answer). Everything else stays as it was: the token check, the declared permission and
 * staff permission, the tenant scope, the request schemas and (API_CHECK_ANSWERS=1) the answer's
 * schema, upload claims (answerRoute, shared with express), the access log line, the
 * request-duration metric, the error envelopes (errorAnswer), the body limit, the compression
 * rules and the language. A request this path is not sure about — another method (HEAD), a
 * trailing slash or other letter case, a body that is not plain JSON (another type or charset,
 * compressed, chunked or over the limit), a path an earlier route would take — goes to express
 * unchanged (api/test/fast-path.test.ts).
 */
export const FAST_ROUTES: ReadonlySet<EndpointKey> = new Set<EndpointKey>([
  'GET /auth/current/user',
  'GET /realtime/counters',
  'POST /complain/query/list',
  'POST /complain/query/id/{id}',
  'POST /complain/query/getComplainStatusTotalVo',
  'POST /eventOrder/query/list',
  'POST /eventOrder/query/id/{id}',
  'POST /eventOrder/query/getEventOrderStatusTotalVo',
  // The console's chat list, read as the chat opens and again on every chat event (issue 31).
  'POST /im/disgroup/list',
]);

/** A JSON body as express.json reads it without a second look: utf-8, no other parameter. */
const PLAIN_JSON = /^application\/json\s*(;\s*charset="?utf-8"?\s*)?$/i;
/** body-parser's strict JSON: an object or an array. */
const FIRST_CHAR = /^[ \t\n\r]*(.)/;

/** The parameters of a path without any (shared: they are only read). */
const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** ctx.req / ctx.res of a fast route: a handler listed in FAST_ROUTES must not use them. */
function unusable(route: ApiRoute, what: 'req' | 'res'): never {
  return new Proxy(
    {},
    {
      get() {
        throw new Error(`${route.key} is in FAST_ROUTES (http/fast-path.ts) but its handler uses ctx.${what}`);
      },
    },
  ) as never;
}

/** One series of the request-duration metric. */
export interface DurationSeries {
  observe(seconds: number): void;
}

/** Observes a request's duration in the request-duration metric (create-app.ts). */
export interface RequestDurations {
  (method: string, status: number, route: string, seconds: number): void;
  /** The series of these labels, for a caller that keeps it; null when there are no metrics. */
  series(method: string, status: number, route: string): DurationSeries | null;
}

interface FastRoute {
  route: ApiRoute;
  /** `/complain/query/id/([^/]+)` (exact letter case, no trailing slash), and its parameters' names. */
  pattern: RegExp | null;
  names: string[];
  /** Earlier routes of the method that could take the same paths (express tries them first). */
  shadows: RegExp[];
  req: Request;
  res: Response;
  /** The request-duration series of this route by status, found once each. */
  byStatus: Map<number, DurationSeries | null>;
}

/**
 * Whether two express paths could match one request path: their literal segments agree (in any
 * letter case) up to where either ends or takes the rest with a wildcard (`/upload/files/*key`
 * takes only paths under `/upload/files/`; issue 34: taken as overlapping everything, it kept
 * every later GET route, the live counters among them, off the fast path).
 */
export function mayOverlap(a: string, b: string): boolean {
  const sa = a.split('/');
  const sb = b.split('/');
  for (let i = 0; i < Math.max(sa.length, sb.length); i++) {
    const x = sa[i];
    const y = sb[i];
    if (x === undefined || y === undefined) return false;
    if (x.includes('*') || y.includes('*')) return true;
    if (!x.startsWith(':') && !y.startsWith(':') && x.toLowerCase() !== y.toLowerCase()) return false;
  }
  return true;
}

export class FastPath {
  private readonly exact = new Map<string, FastRoute>();
  private readonly patterned = new Map<string, FastRoute[]>();

  constructor(
    private readonly o: {
      services: AppServices;
      checkAnswers: boolean;
      log: AccessLog;
      durations: RequestDurations;
    },
  ) {}

  /** Called for every route in the order express registers them, with the earlier routes of its method. */
  add(route: ApiRoute, earlier: { path: string; pattern: RegExp }[]): void {
    if (!FAST_ROUTES.has(route.key)) return;
    if (route.answer === 'raw') throw new Error(`${route.key}: a raw answer cannot take the fast path`);
    const method = route.method.toUpperCase();
    const shadows = earlier.filter((e) => mayOverlap(e.path, route.path)).map((e) => e.pattern);
    const names: string[] = [];
    const source = route.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const fast: FastRoute = {
      route,
      pattern: names.length ? new RegExp(`^${source}$`) : null,
      names,
      shadows,
      req: unusable(route, 'req'),
      res: unusable(route, 'res'),
      byStatus: new Map(),
    };
    if (!fast.pattern) {
      const key = `${method} ${route.path}`;
      // An earlier route answers this path: express decides, as it always did.
      if (!this.exact.has(key) && shadows.length === 0) this.exact.set(key, fast);
      return;
    }
    this.patterned.set(method, [...(this.patterned.get(method) ?? []), fast]);
  }

  /** The route and parameters of a request this path answers; null = express's. */
  private match(method: string, path: string): { fast: FastRoute; params: Record<string, string> } | null {
    const exact = this.exact.get(`${method} ${path}`);
    if (exact) return { fast: exact, params: NO_PARAMS };
    for (const fast of this.patterned.get(method) ?? []) {
      const m = fast.pattern!.exec(path);
      if (!m) continue;
      // Loops rather than some/forEach: no closure made per call (issue 34, part 19).
      for (const shadow of fast.shadows) if (shadow.test(path)) return null;
      const params: Record<string, string> = {};
      for (let i = 0; i < fast.names.length; i++) {
        const value = m[i + 1];
        if (!value.includes('%')) params[fast.names[i]] = value;
        else
          try {
            params[fast.names[i]] = decodeURIComponent(value);
          } catch {
            return null; // express answers a malformed escape
          }
      }
      return { fast, params };
    }
    return null;
  }

  /** Answers the request when it is a fast route's; false = not taken, for express. */
  answer(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const hit = this.match(req.method ?? '', q < 0 ? url : url.slice(0, q));
    if (!hit) return false;
    const { headers } = req;
    if (headers['content-encoding'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    const length = headers['content-length'] === undefined ? 0 : Number(headers['content-length']);
    if (!(length >= 0 && length <= this.o.services.config.bodyLimitBytes)) return false;
    if (length > 0 && (req.method !== 'POST' || !PLAIN_JSON.test(headers['content-type'] ?? ''))) return false;

    const requestId = requestIdOf(headers['x-request-id']);
    const lang = requestLanguage(headers.lang);
    const head = ['x-request-id', requestId];
    const { fast } = hit;
    const call: Call = {
      requestId,
      lang,
      authorization: headers.authorization,
      params: hit.params,
      query: q < 0 ? NO_PARAMS : parseQuery(url.slice(q + 1)),
      body: undefined,
      bodyText: undefined,
      req: fast.req,
      res: fast.res,
      incoming: req,
      outgoing: res,
      fast,
      url,
      head,
      started: performance.now(),
      path: this,
    };
    // The log line and the metric when the answer is done or the caller gone: one listener
    // shared by every call, the call's state on the answer (no closure made per call).
    (res as CallAnswer)[CALL] = call;
    res.on('close', callClosed);
    if (length === 0) {
      void this.run(call);
      return true;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A caller gone midway: nothing to answer; the log line says aborted.
    req.on('error', () => {});
    req.on('end', () => {
      // As express.json reads it: empty = {}, else an object or an array, or a 400.
      const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8').replace(/^\uFEFF/, '');
      // A body read before needs no parse: its read is remembered by its text (answerRoute's readBody).
      call.bodyText = text;
      if (text.length === 0 || bodyKnown(fast.route, text)) {
        if (text.length === 0) call.body = {};
        void this.run(call);
        return;
      }
      const first = FIRST_CHAR.exec(text)?.[1];
      let body: unknown;
      try {
        if (first !== '{' && first !== '[') throw new SyntaxError('not an object or an array');
        body = JSON.parse(text);
      } catch {
        writeError(req, res, lang, new AppError(400, 'errors.malformedJson'), head);
        return;
      }
      call.body = body;
      void this.run(call);
    });
    return true;
  }

  /** Runs the route and writes its envelope (a method, not closures made per call). */
  private async run(call: Call): Promise<void> {
    const { incoming, outgoing, fast, lang, head } = call;
    let data: unknown;
    try {
      data = await answerRoute(fast.route, this.o.services, this.o.checkAnswers, call);
    } catch (err) {
      writeError(incoming, outgoing, lang, errorAnswer(err, this.o.services, call.requestId), head);
      return;
    }
    writeEnvelopeText(incoming, outgoing, 200, envelopeText(fast.route, lang, data), head);
  }

  /** The call's access log line and request-duration metric, once its answer is closed. */
  closed(call: Call): void {
    const { incoming, outgoing, fast } = call;
    const status = outgoing.statusCode;
    const seconds = (performance.now() - call.started) / 1000;
    this.o.log(call.requestId, incoming.method!, call.url, status, Math.round(seconds * 1000), !outgoing.writableEnded);
    let series = fast.byStatus.get(status);
    if (series === undefined)
      fast.byStatus.set(status, (series = this.o.durations.series(incoming.method!, status, fast.route.path)));
    series?.observe(seconds);
  }
}

/** Where a fast call's state sits on its answer, for `callClosed`. */
const CALL = Symbol('fast call');
type CallAnswer = ServerResponse & { [CALL]?: Call };

/** The 'close' listener of every fast call's answer (`this` is the answer); 'close' comes once. */
function callClosed(this: CallAnswer): void {
  const call = this[CALL];
  if (!call) return;
  this[CALL] = undefined;
  call.path.closed(call);
}

/**
 * One call on the fast path: the route's call as answerRoute reads it (`req` / `res` there are
 * the route's unusable stand-ins), with what the answer and the log line need; one object per call.
 */
interface Call extends RouteCall {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
  fast: FastRoute;
  url: string;
  lang: Language;
  head: string[];
  /** performance.now() when the call came. */
  started: number;
  path: FastPath;
}
