import { z } from 'zod';
import type { Counters, Permission } from '@pm/shared';
import type { DbOrTx } from '../db/open-database';
import type { AuthedContext, Caller, PublicContext, TenantScope } from './request-context';

/** 'public': no token needed. 'authenticated': any valid token. Otherwise a permission code (SPEC §6). */
export type RouteAccess = Permission | 'public' | 'authenticated';
export type ContextFor<A extends RouteAccess> = A extends 'public' ? PublicContext : AuthedContext;

export interface RouteInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
}

interface RouteSpec<
  A extends RouteAccess,
  B extends z.ZodType,
  Q extends z.ZodType,
  P extends z.ZodType,
  R extends z.ZodType,
> {
  method: 'get' | 'post';
  /** Express path: `/account/info/:id`; openapi.json shows it as `/account/info/{id}`. */
  path: string;
  /** Declared on every route; the route-table test refuses a route without it. */
  permission: A;
  /**
   * On a route staff and residents share ('authenticated', e.g. chat): the permission a staff
   * caller must hold as well. Residents pass with their own token.
   */
  staffPermission?: Permission;
  summary: string;
  /** Request schemas from shared/; a missing one means "nothing read from there". */
  body?: B;
  query?: Q;
  params?: P;
  /** Schema of `data` in the answer (documentation in /openapi.json). */
  response?: R;
  /** Translation key of the answer's `msg` (default common.success). */
  successMessage?: string;
  /**
   * 'raw': the handler writes the answer itself (OAuth token, files). Default: the handler
   * returns `data` and the envelope step wraps it.
   */
  answer?: 'envelope' | 'raw';
  /** 'form': application/x-www-form-urlencoded body (documentation only; both parsers run). */
  bodyType?: 'json' | 'form' | 'multipart';
  handler: (ctx: ContextFor<A>, input: RouteInput<z.output<B>, z.output<Q>, z.output<P>>) => Promise<z.input<R> | void>;
}

/** A declared route with its types erased, as the modules list holds it. */
export interface ApiRoute {
  method: 'get' | 'post';
  path: string;
  permission: RouteAccess;
  staffPermission?: Permission;
  summary: string;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  response?: z.ZodType;
  successMessage?: string;
  answer?: 'envelope' | 'raw';
  bodyType?: 'json' | 'form' | 'multipart';
  handler: (ctx: AuthedContext | PublicContext, input: RouteInput<unknown, unknown, unknown>) => Promise<unknown>;
}

/**
 * Declares one route: its permission, request schemas, answer shape and handler. The router
 * runs token → permission → tenant scope → validation → handler → envelope around it.
 */
export function defineRoute<
  A extends RouteAccess,
  B extends z.ZodType = z.ZodUnknown,
  Q extends z.ZodType = z.ZodUnknown,
  P extends z.ZodType = z.ZodUnknown,
  R extends z.ZodType = z.ZodUnknown,
>(spec: RouteSpec<A, B, Q, P, R>): ApiRoute {
  return spec as unknown as ApiRoute;
}

/**
 * The module's part of a person's live counters (`GET /realtime/counters`), read with `db` (one
 * read-only snapshot shared by every module). Counters a module leaves out count as zero.
 */
export type CountersContribution = (db: DbOrTx, tenant: TenantScope, caller: Caller) => Promise<Partial<Counters>>;

/** A domain module: a name and its routes. Register it once in modules/index.ts. */
export interface ApiModule {
  name: string;
  routes: ApiRoute[];
  /** What the module adds to the live counters the top bar and sidebar show. */
  counters?: CountersContribution;
}
