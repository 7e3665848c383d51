import { HTTP_TIMEOUT_MS, type Envelope } from '@pm/shared';
import { ApiError, isAbort } from './ApiError';
import { httpHooks } from './http-hooks';

/** Every REST call goes to the gateway on the same origin, which proxies /api to the api. */
export const API_BASE = '/api';

export interface RequestOptions {
  method?: 'GET' | 'POST';
  /** JSON body. */
  body?: unknown;
  /** Form body (urlencoded) or multipart (FormData). */
  form?: URLSearchParams | FormData;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Don't toast errors: the caller shows them itself. */
  silent?: boolean;
  /** Toast the server's msg on success (SPEC §8), for actions the person started. */
  notify?: boolean;
  /** The answer is not an envelope (OAuth2 token answer). */
  raw?: boolean;
}

/** The message SPEC §8 shows: first data item's message, else msg, else "Error". */
function envelopeMessage(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { data?: unknown; msg?: unknown; message?: unknown };
  if (Array.isArray(b.data) && b.data[0] && typeof b.data[0] === 'object') {
    const first = (b.data[0] as { message?: unknown }).message;
    if (typeof first === 'string' && first) return first;
  }
  if (typeof b.msg === 'string' && b.msg) return b.msg;
  if (typeof b.message === 'string' && b.message) return b.message;
  return undefined;
}

/**
 * One call to the api: 10 s timeout, bearer token, `lang` header, envelope handling.
 * Resolves with `data` of a code-200 envelope; rejects with an {@link ApiError} otherwise.
 */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'POST', body, form, signal, silent, notify, raw } = options;
  const token = httpHooks.token();
  const headers: Record<string, string> = { lang: httpHooks.language(), ...options.headers };
  if (token && !headers.Authorization) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), HTTP_TIMEOUT_MS);
  const onAbort = () => timeout.abort();
  signal?.addEventListener('abort', onAbort);
  const fail = (error: ApiError): never => {
    if (!silent) httpHooks.toast('error', error.message);
    throw error;
  };

  let response: Response;
  try {
    response = await fetch(API_BASE + path, {
      method,
      headers,
      body: form ?? (body !== undefined ? JSON.stringify(body) : undefined),
      signal: timeout.signal,
    });
  } catch (e) {
    if (signal?.aborted) throw e;
    return fail(new ApiError(httpHooks.text(isAbort(e) ? 'timeout' : 'network'), 0));
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }

  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const envelope = parsed as Partial<Envelope> | undefined;
  const message = envelopeMessage(parsed) ?? httpHooks.text('generic');

  // SPEC §8: a 401 on a signed-in request means the session ended elsewhere.
  if (response.status === 401 && token && (envelope as { status?: number } | undefined)?.status !== 400) {
    httpHooks.unauthorized();
    throw new ApiError(message, 401, envelope?.code, envelope?.data);
  }
  if (raw) {
    if (!response.ok) return fail(new ApiError(message, response.status, envelope?.code, envelope?.data));
    return parsed as T;
  }
  if (!response.ok || !envelope || envelope.code !== 200) {
    return fail(new ApiError(message, response.status, envelope?.code, envelope?.data));
  }
  if (notify && envelope.msg) httpHooks.toast('success', envelope.msg);
  return envelope.data as T;
}

export const get = <T>(path: string, options: Omit<RequestOptions, 'method'> = {}) =>
  request<T>(path, { ...options, method: 'GET' });
export const post = <T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
  request<T>(path, { ...options, method: 'POST', body: body ?? {} });
