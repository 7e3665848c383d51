import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, redactUpstreamPath, redactUrl } from '../logger';

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

describe('redactUrl', () => {
  const token = 'Zk3v9QmW1xYp0LrT8sNaBcDeFgHiJkLmNoPqRsTuVw';

  it('when a query carries a token, a code or a password, then their values are redacted and the rest kept', () => {
    expect(redactUrl(`/socket.io/?EIO=4&transport=websocket&token=${token}`)).toBe(
      '/socket.io/?EIO=4&transport=websocket&token=[redacted]',
    );
    expect(redactUrl(`/api/x?access_token=${token}&page=2`)).toBe('/api/x?access_token=[redacted]&page=2');
    expect(redactUrl('/api/forget?code=123456&password=hunter2&resetCode=42&lang=en')).toBe(
      '/api/forget?code=[redacted]&password=[redacted]&resetCode=[redacted]&lang=en',
    );
    expect(redactUrl(`/api/x?q=${token}`)).toBe('/api/x?q=[redacted]');
  });

  it('when a path segment looks like a token, then it is redacted and ids, words and file names are kept', () => {
    expect(redactUrl(`/api/${token}/42`)).toBe('/api/[redacted]/42');
    expect(redactUrl('/api/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOjF9.c2lnbmF0dXJlMTIzNDU2Nzg5/7')).toBe('/api/[redacted]/7');
    expect(redactUrl('/api/complain/list/12')).toBe('/api/complain/list/12');
    expect(redactUrl('/api/upload/files/user/202611/3f2a9c4b5d6e7f8091a2b3c4d5e6f708.png')).toBe(
      '/api/upload/files/user/202611/3f2a9c4b5d6e7f8091a2b3c4d5e6f708.png',
    );
    expect(redactUrl('/api/im/disgroup/updat/group/name/15')).toBe('/api/im/disgroup/updat/group/name/15');
  });
});
