import type { Request, Response } from 'express';
import type { ZodType } from 'zod';
import type { Language } from '@pm/shared';
import type { AppServices } from '../app-services';
import { claimingDb, claimUploads, uploadsNamedIn } from '../modules/upload/upload.repository';
import { AppError } from './app-error';
import type { ApiRoute } from './define-route';
import type { PublicContext } from './request-context';
import { translate } from './translate';
import { validationError } from './validation-message';
import { compressed } from './write-envelope';

function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return m ? m[1] : null;
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

/** `ctx.t` of each language, made once. */
const translators = new Map<Language, PublicContext['t']>();
function translateIn(lang: Language): PublicContext['t'] {
  let t = translators.get(lang);
  if (!t) translators.set(lang, (t = (key, params) => translate(lang, key, params)));
  return t;
}

/**
 * A call's context. A class rather than an object literal with getters (issue 34, part 14): a
 * literal's getters are two new closures on every call; here `log` and `t` are the prototype's,
 * made once, and every context has the same fields in the same order (one hidden class).
 */
class RouteContext implements PublicContext {
  private childLog: PublicContext['log'] | undefined = undefined;
  db: PublicContext['db'];
  caller: PublicContext['caller'] = null;
  tenant: PublicContext['tenant'] = null;
  /** The raw bearer token of a route that needs one (AuthedContext); never logged. */
  token: string | undefined = undefined;

  constructor(
    readonly requestId: string,
    readonly lang: Language,
    readonly services: AppServices,
    readonly req: Request,
    readonly res: Response,
  ) {
    this.db = services.db;
  }

  /** Made when a handler first logs: most calls never do. */
  get log(): PublicContext['log'] {
    return (this.childLog ??= this.services.log.child({ reqId: this.requestId }));
  }

  /** Translates into the request's language (one function per language, made once). */
  get t(): PublicContext['t'] {
    return translateIn(this.lang);
  }
}

/** `raw` as `schema` reads it, or the 400 naming `where`. */
function validated(schema: ZodType, raw: unknown, where: 'params' | 'query' | 'body', lang: Language): unknown {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error, where, raw, lang);
  return parsed.data;
}

/**
 * Path parameters read by their schema, remembered per schema and path text (issue 34, part 19:
 * zod of a record's `{ id }` — a union, a pattern, a transform and a pipe — was 2–3 % of a kept
 * record's call). A params schema reads only the path's strings, so the same strings read the
 * same; only a read of plain values (ids, names) is remembered, frozen, so no handler can change
 * what the next call gets. A failing read is never remembered (its 400 is made each time).
 */
const paramsRead = new WeakMap<ZodType, Map<string, unknown>>();
/** Path texts remembered per schema: a full memo starts again (any id of a large estate may come). */
const PARAMS_REMEMBERED = 1_000;

export function validatedParams(schema: ZodType, raw: unknown, lang: Language): unknown {
  const key = paramsKey(raw);
  if (key === null) return validated(schema, raw, 'params', lang);
  let memo = paramsRead.get(schema);
  const known = memo?.get(key);
  if (known !== undefined) return known;
  const data = validated(schema, raw, 'params', lang);
  if (!plainValues(data)) return data;
  if (!memo) paramsRead.set(schema, (memo = new Map()));
  if (memo.size >= PARAMS_REMEMBERED) memo.clear();
  memo.set(key, Object.freeze(data));
  return data;
}

/** The path parameters as one string (each name and value, then NUL); null when one is not a string. */
function paramsKey(raw: unknown): string | null {
  if (raw === null || typeof raw !== 'object') return null;
  let key = '';
  for (const name in raw) {
    const value = (raw as Record<string, unknown>)[name];
    if (typeof value !== 'string') return null;
    key += `${name}\0${value}\0`;
  }
  return key;
}

/** An object whose own values are all strings, numbers, booleans or null (frozen, it cannot change). */
function plainValues(data: unknown): data is object {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return false;
  for (const value of Object.values(data)) if (value !== null && typeof value === 'object') return false;
  return true;
}

/** A JSON body read by its schema, and the uploads it names (the claims answerRoute makes). */
interface BodyRead {
  data: unknown;
  named: readonly string[];
}

/**
 * Bodies read by their schema, remembered per schema and the body's JSON text as it came (issue
 * 34, part 24: the list screen sends the same few bodies — `{"page":1,"limit":10}` and its
 * filters — again and again; JSON.parse, zod and the uploads' scan of each were 3–4 % of a cold
 * list page's api CPU). As validatedParams: only a read of plain values is remembered, frozen (no
 * handler can change what the next call gets), a failing one never (its 400 is made each time),
 * at most BODIES_REMEMBERED texts a schema; the same text read by the same schema reads the same.
 */
const bodiesRead = new WeakMap<ZodType, Map<string, BodyRead>>();
const BODIES_REMEMBERED = 1_000;
/** Only short texts (a list's filters): a long body is a write, read once. */
const BODY_TEXT_MAX = 512;

/**
 * Whether `text` (a body's JSON text) was read by `route`'s body schema before: its JSON is then
 * known to be well formed and the fast path need not parse it (the remembered read is used).
 */
export function bodyKnown(route: ApiRoute, text: string): boolean {
  return route.body !== undefined && bodiesRead.get(route.body)?.has(text) === true;
}

/** The body as `schema` reads it and the uploads it names, remembered by its text when given (see bodiesRead). */
function readBody(route: ApiRoute, schema: ZodType, call: RouteCall, lang: Language): BodyRead {
  const text = call.bodyText;
  let memo = text === undefined ? undefined : bodiesRead.get(schema);
  const known = text === undefined ? undefined : memo?.get(text);
  if (known !== undefined) return known;
  const data = validated(schema, call.body ?? {}, 'body', lang);
  const named = route.method !== 'get' && data !== undefined ? uploadsNamedIn(JSON.stringify(data)) : [];
  if (text === undefined || text.length > BODY_TEXT_MAX || !plainValues(data)) return { data, named };
  if (!memo) bodiesRead.set(schema, (memo = new Map()));
  if (memo.size >= BODIES_REMEMBERED) memo.clear();
  const read = { data: Object.freeze(data), named: Object.freeze(named) };
  memo.set(text, read);
  return read;
}

/** One call of a declared route, from express or from the fast path (fast-path.ts). */
export interface RouteCall {
  requestId: string;
  lang: Language;
  authorization: string | undefined;
  params: unknown;
  query: unknown;
  /** The JSON body as read; undefined when none came, or when `bodyText` is known (bodyKnown). */
  body: unknown;
  /** The body's JSON text as it came (the fast path's): its read is remembered by it (readBody). */
  bodyText?: string;
  req: Request;
  res: Response;
}

/**
 * Runs one declared route: token → permission (and staff permission) → tenant scope → validation
 * → handler; resolves with the handler's answer (checked against its declaration when
 * `checkAnswers`), which the caller writes as the envelope.
 */
export async function answerRoute(
  route: ApiRoute,
  services: AppServices,
  checkAnswers: boolean,
  call: RouteCall,
): Promise<unknown> {
  const ctx = new RouteContext(call.requestId, call.lang, services, call.req, call.res);
  // Token.
  const token = bearerToken(call.authorization);
  if (token) {
    ctx.caller = services.tokens.verifiedNow(token) ?? (await services.tokens.verify(token));
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
  if (route.permission !== 'public') ctx.token = token as string;
  // Validation, in this order (the first failing part is the one the 400 names).
  const params = route.params ? validatedParams(route.params, call.params, ctx.lang) : undefined;
  const query = route.query ? validated(route.query, call.query, 'query', ctx.lang) : undefined;
  // The body and (see readBody) the uploads it names.
  const body = route.body ? readBody(route, route.body, call, ctx.lang) : undefined;
  const input = { params, query, body: body?.data };
  // A write that names uploads saves a record referencing them: they are no draft's any more
  // (uploads never claimed are pruned, README "Data that stays bounded"). The claim is the last
  // step of the handler's own transaction, so it commits with the record or not at all.
  const named = body?.named ?? [];
  const claiming = named.length > 0 ? claimingDb(services.db, named) : null;
  if (claiming) ctx.db = claiming.db;
  // A raw answer may be large: it goes through the compression stream.
  if (route.answer === 'raw') await compressed(call.req, call.res);
  const data = await route.handler(ctx, input);
  // A handler that wrote without a transaction (one statement): claimed after it.
  if (claiming && !claiming.claimed()) await claimUploads(services.db, named);
  if (route.answer !== 'raw' && checkAnswers) checkAnswer(route, data);
  return data;
}

/** The envelope of a route's answer. */
export function envelopeOf(route: ApiRoute, lang: Language, data: unknown) {
  return { code: 200, msg: translate(lang, route.successMessage ?? 'common.success'), data: data ?? null };
}
