import { afterEach, describe, expect, it, vi } from 'vitest';
import { isKept } from '../../http/kept-mark';
import { KeptAnswers, keptMaxFromEnv, readsAny } from '../kept-answers';

interface Answer {
  n: number;
}
const answer = (n: number): Answer => ({ n });

/** A read that finishes when the test says so, and counts how often it was made. */
function heldReads() {
  const state = { reads: 0, finish: [] as (() => void)[] };
  const read = () => {
    const n = ++state.reads;
    return new Promise<Answer>((resolve) => state.finish.push(() => resolve(answer(n))));
  };
  return { state, read };
}

afterEach(() => vi.restoreAllMocks());

describe('KeptAnswers', () => {
  it('when an answer is kept, then its key gets it (marked as kept) and another key misses; hits and misses counted', () => {
    const kept = new KeptAnswers<Answer>(10);
    const a = answer(1);
    expect(kept.end(kept.begin(), 'a', a)).toBe(a);
    expect(kept.get('a')).toBe(a);
    expect(isKept(a)).toBe(true);
    expect(kept.get('b')).toBeUndefined();
    expect(kept.hits).toBe(1);
    expect(kept.misses).toBe(1);
  });

  it('when an answer is older than keepMs, then it is a miss and forgotten', () => {
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_000);
    const kept = new KeptAnswers<Answer>(10, 500);
    kept.end(kept.begin(), 'a', answer(1));
    now.mockReturnValue(1_499);
    expect(kept.get('a')).toBeDefined();
    now.mockReturnValue(1_500);
    expect(kept.get('a')).toBeUndefined();
    expect(kept.size()).toBe(0);
  });

  it('when a drop comes while a read is on its way, then that read is answered but not kept', () => {
    const kept = new KeptAnswers<Answer>(10);
    const load = kept.begin();
    kept.dropAll();
    const a = answer(1);
    expect(kept.end(load, 'a', a)).toBe(a);
    expect(kept.get('a')).toBeUndefined();
    expect(kept.size()).toBe(0);
    // A read begun after the drop is kept.
    kept.end(kept.begin(), 'a', a);
    expect(kept.get('a')).toBe(a);
  });

  it('when more than max are kept, then the least recently used goes, a hit counting as a use', () => {
    const kept = new KeptAnswers<Answer>(2);
    kept.end(kept.begin(), 'a', answer(1));
    kept.end(kept.begin(), 'b', answer(2));
    // b is the newest already (no move); a is moved to the end, then asked again (no move).
    expect(kept.get('b')).toBeDefined();
    expect(kept.get('a')).toBeDefined();
    expect(kept.get('a')).toBeDefined();
    kept.end(kept.begin(), 'c', answer(3));
    expect(kept.size()).toBe(2);
    expect(kept.get('b')).toBeUndefined();
    expect(kept.get('a')).toBeDefined();
    expect(kept.get('c')).toBeDefined();
    // Kept again: the newest, so the other goes first.
    kept.end(kept.begin(), 'a', answer(4));
    kept.end(kept.begin(), 'd', answer(5));
    expect(kept.get('c')).toBeUndefined();
    expect(kept.get('a')?.n).toBe(4);
  });

  it('when max is 0, then nothing is kept, load reads every time and nothing is counted', async () => {
    const kept = new KeptAnswers<Answer>(0);
    kept.end(kept.begin(), 'a', answer(1));
    expect(kept.get('a')).toBeUndefined();
    let reads = 0;
    const read = () => Promise.resolve(answer(++reads));
    await kept.load('a', read);
    await kept.load('a', read);
    expect(reads).toBe(2);
    expect(kept.hits + kept.misses).toBe(0);
  });

  it('when several miss a key at once, then it is read once; one asking after a drop reads again; a hit is no promise', async () => {
    const kept = new KeptAnswers<Answer>(10);
    const { state, read } = heldReads();
    const a = kept.load('a', read);
    const b = kept.load('a', read);
    expect(state.reads).toBe(1);
    kept.dropAll();
    const c = kept.load('a', read);
    expect(state.reads).toBe(2);
    state.finish.forEach((f) => f());
    expect((await a).n).toBe(1);
    expect(await b).toBe(await a);
    expect((await c).n).toBe(2);
    // Only the read begun after the drop was kept; a hit is the answer itself.
    const hit = kept.load('a', read);
    expect(hit).not.toBeInstanceOf(Promise);
    expect((hit as Answer).n).toBe(2);
    expect(state.reads).toBe(2);
  });

  it('when a read fails, then every caller joined to it fails, nothing is kept and the next asks again', async () => {
    const kept = new KeptAnswers<Answer>(10);
    let reads = 0;
    const read = () => {
      reads++;
      return Promise.reject(new Error('gone'));
    };
    const asked = [kept.load('a', read), kept.load('a', read)];
    for (const p of asked) await expect(p).rejects.toThrow('gone');
    expect(reads).toBe(1);
    await expect(kept.load('a', read)).rejects.toThrow('gone');
    expect(reads).toBe(2);
    expect(kept.size()).toBe(0);
  });
});

describe('readsAny and keptMaxFromEnv', () => {
  it('when a written table is one of the reads, then it concerns them', () => {
    const reads = new Set(['complain', 'person']);
    expect(readsAny(reads, new Set(['oauth_token', 'person']))).toBe(true);
    expect(readsAny(reads, new Set(['oauth_token']))).toBe(false);
    expect(readsAny(reads, new Set())).toBe(false);
  });

  it('when the setting is unset, then the fallback; a whole number ≥ 0 else, or an error naming it', () => {
    expect(keptMaxFromEnv('X_KEEP', undefined, 7)).toBe(7);
    expect(keptMaxFromEnv('X_KEEP', '', 7)).toBe(7);
    expect(keptMaxFromEnv('X_KEEP', '0', 7)).toBe(0);
    expect(keptMaxFromEnv('X_KEEP', '12', 7)).toBe(12);
    for (const bad of ['-1', '1.5', 'many']) expect(() => keptMaxFromEnv('X_KEEP', bad, 7)).toThrow(/X_KEEP/);
  });
});
