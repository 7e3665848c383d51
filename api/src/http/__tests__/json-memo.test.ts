import { describe, expect, it } from 'vitest';
import { JsonMemo } from '../json-memo';

describe('JsonMemo', () => {
  it('when a key comes again, then its JSON is the one kept, made once', () => {
    let made = 0;
    const memo = new JsonMemo<{ a: number }>(
      10,
      (input) => (made++, { a: input.a, s: '張三' }),
      (x, y) => x.a === y.a,
    );
    const first = memo.json('k1', { a: 1 });
    expect(JSON.parse(first.bytes.toString('utf8'))).toEqual({ a: 1, s: '張三' });
    expect(memo.json('k1', { a: 1 })).toBe(first);
    expect(memo.json('k2', { a: 2 }).bytes.toString('utf8')).toBe('{"a":2,"s":"張三"}');
    expect(made).toBe(2);
    // The same key with another input: made again, and kept in its place.
    const changed = memo.json('k1', { a: 3 });
    expect(changed.bytes.toString('utf8')).toBe('{"a":3,"s":"張三"}');
    expect(memo.json('k1', { a: 3 })).toBe(changed);
    expect(memo.json('k1', { a: 1 }).bytes.toString('utf8')).toBe('{"a":1,"s":"張三"}');
    expect(made).toBe(4);
  });

  it('when more keys come than a generation holds, then at most two generations are kept and a key read again stays', () => {
    let made = 0;
    const memo = new JsonMemo<number>(
      3,
      (n) => (made++, n),
      (x, y) => x === y,
    );
    for (let i = 0; i < 3; i++) memo.json(`k${i}`, i); // young: k0 k1 k2
    memo.json('k3', 3); // full: k0–k2 become the old generation, k3 the young one
    memo.json('k0', 0); // found in the old one: moves to the young one, not made again
    expect(made).toBe(4);
    for (let i = 4; i < 6; i++) memo.json(`k${i}`, i); // young full again (k3 k0 k4), then k5: k1 k2 let go
    expect(memo.size).toBeLessThanOrEqual(6);
    memo.json('k0', 0);
    memo.json('k3', 3);
    expect(made).toBe(6);
    memo.json('k1', 1);
    expect(made).toBe(7);
    for (let i = 0; i < 100; i++) memo.json(`m${i}`, i);
    expect(memo.size).toBeLessThanOrEqual(6);
  });
});
