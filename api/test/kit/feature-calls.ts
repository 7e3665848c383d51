// A feature's calls as data, with the permission each declares read from the route table as a
// client sees it (the `x-permission` of every operation in the served /openapi.json). A feature's
// tests list their calls once; the permission checks of the kit then cover each of them.
import { expect } from 'vitest';
import type { Caller } from './session';
import type { TestApi } from './start-api';

/** One call of a feature: `{name}` segments of the path are filled with an id when it is made. */
export interface FeatureCall {
  method: 'get' | 'post';
  path: string;
  /** A valid body for the call (a refused call must be refused for its permission, not its input). */
  body?: (id: number) => object;
}

export interface DeclaredCall extends FeatureCall {
  permission: string;
}

/** `/complain/query/id/{id}` with `{id}` filled. */
export const fillPath = (path: string, id: number) => path.replace(/\{\w+\}/g, String(id));

/** Makes `call` as `caller`, with `id` in the path and the body. */
export const makeCall = (caller: Caller, call: FeatureCall, id: number) =>
  caller.call(call.method, fillPath(call.path, id), call.body?.(id) ?? {});

/** Each call with the permission the api declares for it (fails if a call is not in the route table). */
export async function declaredCalls(api: TestApi, calls: readonly FeatureCall[]): Promise<DeclaredCall[]> {
  const doc = (await api.http.get('/openapi.json')).body as {
    paths: Record<string, Record<string, { 'x-permission'?: string }>>;
  };
  return calls.map((call) => {
    const permission = doc.paths[call.path]?.[call.method]?.['x-permission'];
    expect(permission, `${call.method.toUpperCase()} ${call.path} is declared in the route table`).toBeTruthy();
    return { ...call, permission: permission! };
  });
}
