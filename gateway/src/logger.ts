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

/** `/abc.def/42` → `/[redacted]/42`: the upstream path with its token hidden, safe to log. */
export function redactUpstreamPath(path: string): string {
  return path.replace(/^\/[^/]+\//, '/[redacted]/');
}

export type { Logger };
