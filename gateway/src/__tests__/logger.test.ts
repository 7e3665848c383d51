import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, redactUpstreamPath } from '../logger';

function capture(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, stream };
}

describe('logger', () => {
  it('when a token or an authorization header is logged, then only [redacted] appears', () => {
    const { lines, stream } = capture();
    const log = createLogger('info', stream);
    log.info({ token: 'secret-token-1' }, 'a');
    log.info({ auth: { token: 'secret-token-2' } }, 'b');
    log.info({ req: { headers: { authorization: 'Bearer secret-token-3' } } }, 'c');
    log.info({ upstreamUrl: 'ws://api/secret-token-4/7' }, 'd');
    const text = lines.join('');
    expect(text).not.toMatch(/secret-token/);
    expect(text.match(/\[redacted\]/g)).toHaveLength(4);
  });

  it('when the upstream path is prepared for a log line, then the token segment is hidden and the person id kept', () => {
    expect(redactUpstreamPath('/eyJhbGciOi.abc.def/42')).toBe('/[redacted]/42');
  });
});
