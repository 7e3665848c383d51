import { fillPath, type EndpointAnswer, type EndpointInput, type EndpointKey, type Endpoints } from '@pm/shared';
import { request, type RequestOptions } from './http';

/**
 * What a call sends and answers, from its declaration in shared (`@pm/shared` endpoints). Types
 * only: the zod schemas behind them never reach the console's bundle.
 */
export type CallInput<K extends EndpointKey> = K extends EndpointKey ? EndpointInput<Endpoints[K]> : never;
export type CallAnswer<K extends EndpointKey> = K extends EndpointKey ? EndpointAnswer<Endpoints[K]> : never;
export type CallOptions = Omit<RequestOptions, 'method' | 'body'>;

/**
 * One declared call: `call('GET /account/info/{id}', { id: 7 })`. Path parameters come from
 * `input`; the rest of it is the query string of a GET or the JSON body of a POST (a form or
 * multipart body goes in `options.form`, as with `request`).
 */
export function call<K extends EndpointKey>(
  key: K,
  input: CallInput<K>,
  options: CallOptions = {},
): Promise<CallAnswer<K>> {
  const space = key.indexOf(' ');
  const method = key.slice(0, space) as 'GET' | 'POST';
  const { path, rest } = fillPath({ path: key.slice(space + 1) }, (input ?? {}) as Record<string, unknown>);
  if (method === 'GET') {
    const query = new URLSearchParams(rest as Record<string, string>).toString();
    return request<CallAnswer<K>>(query ? `${path}?${query}` : path, { ...options, method });
  }
  return request<CallAnswer<K>>(path, { ...options, method, body: options.form ? undefined : rest });
}
