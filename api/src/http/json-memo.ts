import { JsonBytes } from './json-text';

/**
 * Values' JSON encoded once and kept by a key that says everything the value is made of (issue 31,
 * the last two budgets: a person's 1,000 conversations were 1,000 objects, then ~0.4 MB of JSON
 * text, then its bytes, on every read of the list, though the list is read again on every chat
 * event and one row changed). The key is the value's whole input, so a kept value is never stale:
 * nothing to drop when data changes, and a changed row simply has a new key.
 *
 * Bounded without bookkeeping per read: two generations of at most `max` keys each; when the new
 * one is full it becomes the old one and the oldest is let go; a key found in the old one moves
 * to the new one. At most 2 × `max` values are kept.
 */
export class JsonMemo<T> {
  private young = new Map<string, JsonBytes>();
  private old = new Map<string, JsonBytes>();

  constructor(
    private readonly max: number,
    /** The value of an input, as JSON.stringify writes it. */
    private readonly valueOf: (input: T) => unknown,
  ) {}

  /** The JSON of `input`, kept by `key` (which must say everything valueOf reads of it). */
  json(key: string, input: T): JsonBytes {
    let kept = this.young.get(key);
    if (kept !== undefined) return kept;
    kept = this.old.get(key);
    if (kept !== undefined) this.old.delete(key);
    else kept = new JsonBytes(Buffer.from(JSON.stringify(this.valueOf(input))));
    if (this.young.size >= this.max) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, kept);
    return kept;
  }

  /** How many values are kept (tests). */
  get size(): number {
    return this.young.size + this.old.size;
  }
}
