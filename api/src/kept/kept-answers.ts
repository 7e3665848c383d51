import { keptAnswer } from '../http/kept-mark';

/** A read of an answer on its way: kept only if no drop came between its `begin` and its `end`. */
export type KeptLoad = number;

interface Kept<A> {
  answer: A;
  /** Date.now() past which the answer is not trusted. */
  until: number;
}

/**
 * Answers kept in the api process and answered again as they are (issue 34): the records by id
 * (work-orders/kept-by-id.ts) and the list pages (work-orders/kept-lists.ts). What is kept under
 * which key, and which writes drop it, is theirs; this class is the keeping:
 *
 * - bounded: `max` answers at most, the least recently used out first (a Map's order: a hit
 *   moves its entry to the end); `max` 0 keeps none (the setting that turns it off);
 * - `keepMs` at most each: only bounds a change made past the api (by hand in the database),
 *   every write the api makes drops the answers at its commit (`dropAll`);
 * - a read that a drop overtook is not kept (the generation: `begin` before the read, `end`
 *   after), so a read that saw a row before a commit is never kept after it;
 * - one read for all the callers missing the same key at the same time (`load`); a caller asking
 *   after a drop never joins a read begun before it;
 * - hits and misses counted (the `/metrics` counters read them).
 *
 * Each kept answer is marked (kept-mark.ts): its envelope and compressed bytes are made once per
 * route and language. Hand out an answer only unchanged: a change makes a new one.
 */
export class KeptAnswers<A extends object> {
  private readonly kept = new Map<string, Kept<A>>();
  /** Reads on their way, by key, in this generation (dropped with the answers). */
  private readonly loading = new Map<string, Promise<A>>();
  /**
   * The key at the end of `kept`'s order, if known: a hit on it needs no move (issue 34: the
   * delete and set of a move were most of a hit's cost; the same answer is often asked again
   * and again — everyone's default list page, a record whose dialog is open on many screens).
   */
  private newest: string | undefined;
  private generation = 0;
  hits = 0;
  misses = 0;

  constructor(
    readonly max: number,
    private readonly keepMs = 30_000,
  ) {}

  /** The kept answer, if any (and counted as a hit or a miss). */
  get(key: string): A | undefined {
    if (this.max === 0) return undefined;
    const entry = this.kept.get(key);
    if (entry === undefined || entry.until <= Date.now()) {
      if (entry) this.forget(key);
      this.misses++;
      return undefined;
    }
    // Least recently used goes first: a hit moves to the end of the map's order.
    if (key !== this.newest) {
      this.kept.delete(key);
      this.kept.set(key, entry);
      this.newest = key;
    }
    this.hits++;
    return entry.answer;
  }

  /** Before reading an answer: the generation it is kept under. */
  begin(): KeptLoad {
    return this.generation;
  }

  /** After reading it: kept unless a drop came since `begin` (then it may be older than the write). */
  end<T extends A>(load: KeptLoad, key: string, answer: T): T {
    if (this.max === 0 || load !== this.generation) return answer;
    keptAnswer(answer);
    this.kept.delete(key);
    this.kept.set(key, { answer, until: Date.now() + this.keepMs });
    this.newest = key;
    if (this.kept.size > this.max) this.forget(this.kept.keys().next().value!);
    return answer;
  }

  /**
   * The answer: kept, or read by `read` — once for all the callers asking for it at the same time
   * (after a drop, each would read it again on its own). A caller asking after a drop never joins
   * a read begun before it (the reads are dropped too), so the writer's next read, and anyone's
   * after the commit, shows the write. A read that fails fails every caller that joined it, and
   * nothing is kept. A hit is answered as it is, not in a promise (the cheap calls: issue 34).
   */
  load<T extends A>(key: string, read: () => Promise<T>): T | Promise<T> {
    const hit = this.get(key);
    if (hit) return hit as T;
    if (this.max === 0) return read();
    const joined = this.loading.get(key);
    if (joined) return joined as Promise<T>;
    const load = this.begin();
    const reading = read().then((answer) => this.end(load, key, answer));
    this.loading.set(key, reading);
    const done = () => {
      if (this.loading.get(key) === reading) this.loading.delete(key);
    };
    reading.then(done, done);
    return reading;
  }

  /** Drops every kept answer, and makes the reads on their way not kept. */
  dropAll(): void {
    this.generation++;
    this.kept.clear();
    this.loading.clear();
    this.newest = undefined;
  }

  /** Kept answers (tests). */
  size(): number {
    return this.kept.size;
  }

  private forget(key: string): void {
    this.kept.delete(key);
    if (key === this.newest) this.newest = undefined;
  }
}

/** Whether a write to `written` touches any of the tables in `reads`. */
export function readsAny(reads: ReadonlySet<string>, written: ReadonlySet<string>): boolean {
  for (const t of written) if (reads.has(t)) return true;
  return false;
}

/** A kept-answers bound from the environment: `fallback` when unset; a whole number ≥ 0 else. */
export function keptMaxFromEnv(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number ≥ 0, not "${value}"`);
  return n;
}
