import { JsonBytes } from './json-text';

/** A kept value: the input it was made of and its JSON. */
interface Kept<T> {
  input: T;
  json: JsonBytes;
}

/**
 * Values' JSON encoded once and kept while their input does not change (issue 31, the last two
 * budgets: a person's 1,000 conversations were 1,000 objects, then ~0.4 MB of JSON text, then its
 * bytes, on every read of the list, though the list is read again on every chat event and one row
 * changed). A value is found by a short key and kept only if `same` finds its whole input
 * unchanged, so a kept value is never stale: nothing to drop when data changes, a changed input
 * is simply made again (and replaces the kept one). Comparing the input field by field costs less
 * than a key made of all of it (a long string built, copied and hashed per row).
 *
 * Bounded without bookkeeping per read: two generations of at most `max` keys each; when the new
 * one is full it becomes the old one and the oldest is let go; a key found in the old one moves
 * to the new one. At most 2 × `max` values are kept.
 */
export class JsonMemo<T> {
  private young = new Map<string, Kept<T>>();
  private old = new Map<string, Kept<T>>();

  constructor(
    private readonly max: number,
    /** The value of an input, as JSON.stringify writes it. */
    private readonly valueOf: (input: T) => unknown,
    /** Whether two inputs give the same value (everything valueOf reads of them is equal). */
    private readonly same: (a: T, b: T) => boolean,
  ) {}

  /** The JSON of `input`, looked up by `key`. */
  json(key: string, input: T): JsonBytes {
    let kept = this.young.get(key);
    if (kept !== undefined && this.same(kept.input, input)) return kept.json;
    if (kept === undefined) {
      kept = this.old.get(key);
      if (kept !== undefined) this.old.delete(key);
    }
    if (kept === undefined || !this.same(kept.input, input))
      kept = { input, json: new JsonBytes(Buffer.from(JSON.stringify(this.valueOf(input)))) };
    if (this.young.size >= this.max && !this.young.has(key)) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, kept);
    return kept.json;
  }

  /** How many values are kept (tests). */
  get size(): number {
    return this.young.size + this.old.size;
  }
}
