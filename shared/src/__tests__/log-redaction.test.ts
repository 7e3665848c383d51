import { describe, expect, it } from 'vitest';
import { looksLikeSecret, redactUrl } from '../log-redaction';

describe('the access logs’ URL redaction', () => {
  it('when a 256-bit token has no digit in it, then it is still recognised as a secret', () => {
    const lettersOnly = 'QmWxYpLrTsNaBcDeFgHiJkLmNoPqRsTuVwXyZaBcDeF';
    expect(lettersOnly).toHaveLength(43);
    expect(looksLikeSecret(lettersOnly)).toBe(true);
    expect(redactUrl(`/${lettersOnly}/42`)).toBe('/[redacted]/42');
  });

  it('when segments are route words, ids or stored file names, then they are kept', () => {
    for (const kept of ['unreadstatisticsbytype', '1234567', '3f2a9c4b5d6e7f8091a2b3c4d5e6f708.png', 'complain'])
      expect(looksLikeSecret(kept), kept).toBe(false);
    expect(redactUrl('/account/reset/password/1234567?page=2')).toBe('/account/reset/password/1234567?page=2');
  });

  it('when a path has a token-like segment of exactly 20 characters, first, last or alone, then it is redacted; 19 are not a token', () => {
    const twenty = 'a1b2c3d4e5f6g7h8i9j0';
    expect(twenty).toHaveLength(20);
    for (const [url, logged] of [
      [`/${twenty}`, '/[redacted]'],
      [`/${twenty}/x`, '/[redacted]/x'],
      [`/x/y/${twenty}`, '/x/y/[redacted]'],
      [twenty, '[redacted]'],
      [`/${twenty.slice(1)}/${twenty.slice(1)}`, `/${twenty.slice(1)}/${twenty.slice(1)}`],
      ['/complain/query/id/36', '/complain/query/id/36'],
    ])
      expect(redactUrl(url), url).toBe(logged);
  });
});
