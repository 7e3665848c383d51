import { describe, expect, it } from 'vitest';
import { isoOrNull } from '../sql';

describe('isoOrNull', () => {
  it('when PostgreSQL gives its UTC text form, then it answers what Date would, milliseconds truncated', () => {
    for (const v of [
      '2026-11-26 22:10:00.123956+00',
      '2026-11-26 22:10:00.999999+00',
      '2026-11-26 22:10:00.1+00',
      '2026-11-26 22:10:00.12+00',
      '2026-11-26 22:10:00+00',
      '0999-01-01 00:00:00+00',
    ])
      expect(isoOrNull(v)).toBe(new Date(v).toISOString());
    expect(isoOrNull('2026-11-26 22:10:00.123956+00')).toBe('2026-11-26T22:10:00.123Z');
  });

  it('when the value is another form, a Date, or null, then it goes through Date (null stays null)', () => {
    expect(isoOrNull('2026-11-26 22:10:00.12+05:30')).toBe('2026-11-26T16:40:00.120Z');
    expect(isoOrNull('2026-11-26T22:10:00Z')).toBe('2026-11-26T22:10:00.000Z');
    expect(isoOrNull(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
    expect(isoOrNull(null)).toBeNull();
    expect(isoOrNull(undefined)).toBeNull();
  });
});
