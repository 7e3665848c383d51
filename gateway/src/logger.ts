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
    // Each line is written to stdout at once (a synchronous write): a buffer held lines back for
    // minutes on a quiet gateway and lost them when the process was killed. pino's JSON
    // formatting is the costly part; the write is one small syscall.
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

// The URL redaction both access logs share (shared/src/log-redaction.ts).
export { redactUrl } from '@pm/shared';

/** `/abc.def/42` → `/[redacted]/42`: the upstream path with its token hidden, safe to log. */
export function redactUpstreamPath(path: string): string {
  return path.replace(/^\/[^/]+\//, '/[redacted]/');
}

export type { Logger };
