import pino from 'pino';

/** A path segment that looks like a secret: a bearer token, a device value or any long opaque string. */
const OPAQUE_SEGMENT = /^[A-Za-z0-9_~.+=%-]{20,}$/;

/**
 * A request path fit for the log: opaque segments (tokens such as the real-time channel's
 * `/{token}/{personId}`) become `[redacted]`. The access log writes `req.path`, without the
 * query string, and never headers or bodies.
 */
export function redactPath(path: string): string {
  return path
    .split('/')
    .map((segment) => (OPAQUE_SEGMENT.test(segment) ? '[redacted]' : segment))
    .join('/');
}

/** Keys whose values never reach a log, wherever they appear in a logged object. */
export const SECRET_KEYS = ['authorization', 'cookie', 'password', 'newPassword', 'objStr', 'token', 'access_token'];

/**
 * pino's error serializer without the values of a failed query: drizzle puts a query's
 * parameters (password and code hashes, tokens' hashes, e-mails) into the error's message and
 * `params`.
 */
export function errorWithoutSecrets(err: Error): Record<string, unknown> {
  const out = pino.stdSerializers.err(err) as unknown as Record<string, unknown>;
  const scrub = (value: unknown, depth: number): unknown => {
    if (depth > 4 || value === null || typeof value !== 'object') {
      return typeof value === 'string' ? value.replace(/\nparams: [\s\S]*$/, '\nparams: [redacted]') : value;
    }
    const copy: Record<string, unknown> = Array.isArray(value) ? ([] as unknown as Record<string, unknown>) : {};
    for (const [k, v] of Object.entries(value)) {
      copy[k] = k === 'params' || SECRET_KEYS.includes(k) ? '[redacted]' : scrub(v, depth + 1);
    }
    return copy;
  };
  return scrub(out, 0) as Record<string, unknown>;
}
