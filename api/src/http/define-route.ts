import type { z } from 'zod';
import {
  endpoints,
  type Counters,
  type EndpointAccess,
  type EndpointKey,
  type EndpointSpec,
  type Endpoints,
} from '@pm/shared';
import type { SQL } from 'drizzle-orm';
import type { AuthedContext, Caller, PublicContext, TenantScope } from './request-context';

export type RouteAccess = EndpointAccess;
export type ContextFor<A extends RouteAccess> = A extends 'public' ? PublicContext : AuthedContext;

export interface RouteInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
}

type Read<S> = S extends z.ZodType ? z.output<S> : undefined;
/** What a handler receives: each declared schema's output. */
type InputOf<E extends EndpointSpec> = RouteInput<Read<E['body']>, Read<E['query']>, Read<E['params']>>;
/** What a handler returns: the declared answer, or nothing when it writes the answer itself. */
type AnswerOf<E extends EndpointSpec> = E['answer'] extends 'raw' ? void : z.input<E['response']>;

export type RouteHandler<K extends EndpointKey> = (
  ctx: ContextFor<Endpoints[K]['permission']>,
  input: InputOf<Endpoints[K]>,
) => Promise<AnswerOf<Endpoints[K]>>;

/** A declared call with its handler, as the router runs it. `path` is the express form (`/account/info/:id`). */
export interface ApiRoute extends EndpointSpec {
  key: EndpointKey;
  method: 'get' | 'post';
  path: string;
  handler: (ctx: AuthedContext | PublicContext, input: RouteInput<unknown, unknown, unknown>) => Promise<unknown>;
}

/** `/upload/files/{key}` → `/upload/files/:key` (`*key` when the declaration says the last one takes the rest). */
export function expressPath(endpoint: { path: string; restParam?: boolean }): string {
  const path = endpoint.path.replace(/\{(\w+)\}/g, ':$1');
  return endpoint.restParam ? path.replace(/:(\w+)$/, '*$1') : path;
}

/**
 * The handler of one call declared in shared (`@pm/shared` endpoints): permission, request
 * schemas and answer come from the declaration, so ctx, input and the return are typed by it.
 * The router runs token → permission → tenant scope → validation → handler → envelope around it.
 */
export function route<K extends EndpointKey>(key: K, handler: RouteHandler<K>): ApiRoute {
  const endpoint = endpoints[key] as EndpointSpec & { method: string };
  if (!endpoint) throw new Error(`route ${key}: no such endpoint in @pm/shared`);
  return {
    ...endpoint,
    key,
    method: endpoint.method === 'GET' ? 'get' : 'post',
    path: expressPath(endpoints[key]),
    handler: handler as ApiRoute['handler'],
  };
}

/**
 * The module's part of a person's live counters (`GET /realtime/counters`, issue 34): a query and
 * what its rows count. Every module's query is read as a subquery of ONE statement (one snapshot,
 * one round trip), prepared once per shape. `sql` builds the query with `p(name)` placeholders
 * for `values`; `key` names its shape (the same key must always build the same SQL). Counters a
 * module leaves out (or a `null` part) count as zero.
 */
export interface CountersPart {
  key: string;
  sql: (p: (name: string) => SQL) => SQL;
  values: Record<string, unknown>;
  /** The counters from the query's rows (as JSON: numbers stay numbers). */
  read(rows: Record<string, unknown>[]): Partial<Counters>;
}
export type CountersContribution = (tenant: TenantScope, caller: Caller) => CountersPart | null;

/** A domain module: a name and its routes. Register it once in modules/index.ts. */
export interface ApiModule {
  name: string;
  routes: ApiRoute[];
  /** What the module adds to the live counters the top bar and sidebar show. */
  counters?: CountersContribution;
}
