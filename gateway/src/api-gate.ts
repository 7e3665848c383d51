/**
 * How many of the gateway's own calls to the api (identity lookups, counters reads, upstream
 * opens) run at once, and how the rest wait (issue 34). Thousands of tabs coming back after a
 * restart used to ask the api everything at once: its listen queue overflowed, lookups timed
 * out, each failed one made five tabs retry and ask again, and the herd fed itself. Here a
 * bounded number run and the others wait their turn in a queue, identity lookups first (a tab's
 * handshake waits on them, and socket.io closes a connection that has not joined within its
 * connect timeout); the rest after them, in order.
 *
 * An identity lookup is refused at once (`ApiBusyError`, which the handshake answers 503 with a
 * Retry-After) only when the queue is full or its wait would outlast the handshake's time; the
 * pause it names grows with the backlog.
 */

/** Too many calls wait for the api already: try again after `retryAfterSeconds`. */
export class ApiBusyError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`the api is busy: try again in ${retryAfterSeconds} s`);
  }
}

export interface ApiGateLimits {
  /** Calls to the api in flight at once. */
  inFlight: number;
  /** Identity lookups waiting at most; more are refused with a Retry-After. */
  queued: number;
  /** The longest an identity lookup may wait for its turn (ms): a handshake has 30 s in all (server.ts). */
  maxWaitMs: number;
}

export const DEFAULT_API_GATE: ApiGateLimits = { inFlight: 16, queued: 4_000, maxWaitMs: 18_000 };

/**
 * identity: a handshake waits on it (bounded wait, may be refused); counters: a person's upstream is
 * open and the tabs wait for their snapshot; bulk: upstream opens. The last two wait, never refused;
 * counters go before upstream opens, so that persons already started are finished first.
 */
export type ApiCallKind = 'identity' | 'counters' | 'bulk';

interface Waiter {
  start(): void;
  refuse(err: Error): void;
  since: number;
}

/** A FIFO with O(1) take from the front. */
class Queue<T> {
  private items: T[] = [];
  private head = 0;
  get length(): number {
    return this.items.length - this.head;
  }
  push(item: T): void {
    this.items.push(item);
  }
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

/** Seconds of a Retry-After: at least 1, at most 30. */
const clampSeconds = (ms: number) => Math.min(30, Math.max(1, Math.ceil(ms / 1000)));

export class ApiGate {
  readonly limits: ApiGateLimits;
  private running = 0;
  private readonly identity = new Queue<Waiter>();
  private readonly counters = new Queue<Waiter>();
  private readonly bulk = new Queue<Waiter>();
  /** A moving average of how long one call holds its slot (ms), for the wait a newcomer faces. */
  private averageMs = 20;

  constructor(limits: Partial<ApiGateLimits> = {}) {
    this.limits = { ...DEFAULT_API_GATE, ...limits };
  }

  /** Calls running and waiting now (for /metrics and tests). */
  get load(): { running: number; identity: number; counters: number; bulk: number } {
    return {
      running: this.running,
      identity: this.identity.length,
      counters: this.counters.length,
      bulk: this.bulk.length,
    };
  }

  /** The wait an identity lookup queued now would face (ms). */
  private expectedWaitMs(): number {
    return ((this.identity.length + 1) * this.averageMs) / this.limits.inFlight;
  }

  /** The refusal an identity lookup gets now (its Retry-After: the wait it would face). */
  busy(): ApiBusyError {
    return new ApiBusyError(clampSeconds(this.expectedWaitMs()));
  }

  /** Runs `call` when a slot is free (at once when one is). */
  async run<T>(kind: ApiCallKind, call: () => Promise<T>): Promise<T> {
    const release = await this.acquire(kind);
    try {
      return await call();
    } finally {
      release();
    }
  }

  /**
   * A slot, held until the returned function is called (once; later calls do nothing): for
   * calls whose end is an event, as an upstream's upgrade.
   */
  acquire(kind: ApiCallKind): Promise<() => void> {
    if (
      this.running < this.limits.inFlight &&
      this.identity.length === 0 &&
      this.counters.length === 0 &&
      this.bulk.length === 0
    )
      return Promise.resolve(this.take());
    if (kind === 'identity') {
      const wait = this.expectedWaitMs();
      if (this.identity.length >= this.limits.queued || wait > this.limits.maxWaitMs)
        return Promise.reject(new ApiBusyError(clampSeconds(wait)));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { start: () => resolve(this.take()), refuse: reject, since: Date.now() };
      this[kind].push(waiter);
      this.next();
    });
  }

  private take(): () => void {
    this.running++;
    const started = Date.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      this.averageMs = this.averageMs * 0.9 + (Date.now() - started) * 0.1;
      this.next();
    };
  }

  private next(): void {
    while (this.running < this.limits.inFlight) {
      const waiter = this.identity.shift();
      if (waiter) {
        // Waited past the handshake's time (the estimate was wrong): its tab is told to come back.
        const waited = Date.now() - waiter.since;
        if (waited > this.limits.maxWaitMs) {
          waiter.refuse(new ApiBusyError(clampSeconds(this.expectedWaitMs())));
          continue;
        }
        waiter.start();
        continue;
      }
      const next = this.counters.shift() ?? this.bulk.shift();
      if (!next) return;
      next.start();
    }
  }
}
