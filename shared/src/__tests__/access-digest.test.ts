import { describe, expect, it } from 'vitest';
import { accessDigest } from '../permissions';

describe('the access digest a tab sends with its handshake (issue 30)', () => {
  it('when the same access is written differently, then the digest is the same', () => {
    const a = accessDigest('STAFF', ['complain:list', 'unit:list', 'complain:view']);
    expect(accessDigest('STAFF', ['unit:list', 'complain:view,complain:list'])).toBe(a);
    expect(accessDigest('STAFF', new Set(['complain:view', ' complain:list', 'unit:list', 'unit:list']))).toBe(a);
  });

  it('when a permission or the role value differs, then the digest differs', () => {
    const a = accessDigest('STAFF', ['complain:list', 'complain:view']);
    expect(accessDigest('STAFF', ['complain:list'])).not.toBe(a);
    expect(accessDigest('STAFF', ['complain:list', 'complain:reply'])).not.toBe(a);
    expect(accessDigest('ROLE_ADMIN', ['complain:list', 'complain:view'])).not.toBe(a);
  });
});
