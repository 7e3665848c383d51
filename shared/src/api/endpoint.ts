import type { z } from 'zod';
import type { Permission } from '../permissions';

/** 'public': no token needed. 'authenticated': any valid token. Otherwise a permission code (SPEC §6). */
export type EndpointAccess = Permission | 'public' | 'authenticated';
export type EndpointMethod = 'GET' | 'POST';

/**
 * One call of the api, declared once (issue 15): the api's route table, /openapi.json, the
 * client's `call` and the gateway's api client all read it. Keyed by `'METHOD /path'`, the path in
 * OpenAPI form (`/account/info/{id}`).
 */
export interface EndpointSpec {
  /** Declared on every call; the route-table test refuses one without it. */
  permission: EndpointAccess;
  /**
   * On a call staff and residents share ('authenticated', e.g. chat): the permission a staff
   * caller must hold as well. Residents pass with their own token.
   */
  staffPermission?: Permission;
  summary: string;
  /** Request schemas; a missing one means "nothing read from there". */
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /** Schema of `data` in the envelope (`z.null()` when there is none); of the whole answer when `answer: 'raw'`. */
  response: z.ZodType;
  /** Translation key of the answer's `msg` (default common.success). */
  successMessage?: string;
  /** 'raw': the route writes the answer itself (OAuth token, files). Default: the envelope `{ code, msg, data }`. */
  answer?: 'envelope' | 'raw';
  /** Content type of a raw answer (default application/json): files are `application/octet-stream`. */
  answerContentType?: string;
  /** How the body travels (default json). */
  bodyType?: 'json' | 'form' | 'multipart';
  /**
   * A form or multipart body the route reads and checks itself (the upload stream; the OAuth form,
   * after the client check): documented in /openapi.json, not validated by the router (`body` is).
   */
  formBody?: z.ZodType;
  /** The last path parameter takes the rest of the path, slashes included (`/upload/files/{key}`). */
  restParam?: boolean;
}

/** A declaration with its key, method and path. */
export type Endpoint<K extends string = string, S extends EndpointSpec = EndpointSpec> = S & {
  key: K;
  method: EndpointMethod;
  /** OpenAPI form: `/account/info/{id}`. */
  path: string;
};

type EndpointKey = `${EndpointMethod} /${string}`;

/** Declares a domain's calls: `defineEndpoints({ 'GET /account/info/{id}': { permission, summary, params, response } })`. */
export function defineEndpoints<const T extends Record<EndpointKey, EndpointSpec>>(
  specs: T,
): { [K in keyof T & EndpointKey]: Endpoint<K, T[K]> } {
  const out: Record<string, Endpoint> = {};
  for (const [key, spec] of Object.entries(specs)) {
    const [method, path] = key.split(' ') as [EndpointMethod, string];
    out[key] = { ...spec, key, method, path };
  }
  return out as unknown as { [K in keyof T & EndpointKey]: Endpoint<K, T[K]> };
}

/** The `data` an endpoint answers (the whole answer for `answer: 'raw'`). */
export type EndpointAnswer<E extends EndpointSpec> = z.output<E['response']>;

/**
 * What a caller sends: path parameters, query and JSON body, each as the schema reads it (before
 * defaults). A form or multipart body is built by the caller (FormData, URLSearchParams).
 */
export type EndpointInput<E extends EndpointSpec> = (E['params'] extends z.ZodType ? z.input<E['params']> : unknown) &
  (E['query'] extends z.ZodType ? z.input<E['query']> : unknown) &
  (E['bodyType'] extends 'form' | 'multipart' ? unknown : E['body'] extends z.ZodType ? z.input<E['body']> : unknown);

/**
 * The URL path of a call with its `{name}` parameters filled from `input`, and what is left of
 * `input` (the query of a GET, the body of a POST): `/account/info/{id}` + `{ id: 7 }` → `/account/info/7`.
 */
export function fillPath(
  endpoint: { path: string; restParam?: boolean },
  input: Record<string, unknown> = {},
): { path: string; rest: Record<string, unknown> } {
  const rest = { ...input };
  const path = endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = String(rest[name] ?? '');
    delete rest[name];
    return endpoint.restParam ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
  });
  return { path, rest };
}
