import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * The gateway's JSON logger. Bearer tokens travel in headers, in socket.io handshakes and
 * in the upstream path (/{token}/{personId}), so every place one could appear is redacted.
 */
export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'gateway' },
      redact: {
        paths: [
          'token',
          '*.token',
          'authorization',
          '*.authorization',
          '*.headers.authorization',
          'auth.token',
          'upstreamUrl',
        ],
        censor: '[redacted]',
      },
    },
    // Buffered, asynchronous writes to stdout: a log line per proxied request must not cost a syscall each.
    destination ?? pino.destination({ dest: 1, sync: false, minLength: 4096 }),
  );
}

/** Query parameters whose value may be a secret (token, access_token, resetCode, password, apiKey, …). */
const SECRET_PARAM = /token|passw|pwd|secret|code|key|sig|auth/i;
/** A path segment or value that looks like a token: long, of token characters, letters and digits mixed, not a file name. */
const OPAQUE = /^(?=.*\d)(?=.*[a-z])[\w.~+=-]{24,}$/i;
const FILE_NAME = /\.[a-z\d]{1,5}$/i;

function looksOpaque(value: string): boolean {
  return OPAQUE.test(value) && !FILE_NAME.test(value);
}

/**
 * A request URL safe to log: values of secret-named query parameters (token, access_token, code,
 * password, …) and token-like path segments and values become `[redacted]`; the rest is kept.
 * `/api/oauth/x?access_token=abc&page=2` → `/api/oauth/x?access_token=[redacted]&page=2`.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  const path = (at < 0 ? url : url.slice(0, at))
    .split('/')
    .map((segment) => (looksOpaque(safeDecode(segment)) ? '[redacted]' : segment))
    .join('/');
  if (at < 0) return path;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return looksOpaque(safeDecode(pair)) ? '[redacted]' : pair;
      const name = safeDecode(pair.slice(0, eq));
      const value = safeDecode(pair.slice(eq + 1).replace(/\+/g, ' '));
      return SECRET_PARAM.test(name) || looksOpaque(value) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `/abc.def/42` → `/[redacted]/42`: the upstream path with its token hidden, safe to log. */
export function redactUpstreamPath(path: string): string {
  return path.replace(/^\/[^/]+\//, '/[redacted]/');
}

export type { Logger };
