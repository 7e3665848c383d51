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
});
