import type { Redis } from 'ioredis';
import { LiveSnapshotSchema, type LiveSnapshot } from '@pm/shared';

/** A person's live state as last delivered: the snapshot and the number of the last push in it. */
export interface StoredLive {
  snapshot: LiveSnapshot;
  pushSeq: number | null;
}

/**
 * Where the instance holding a person's upstream publishes that person's latest state, so a tab
 * connecting to any other instance gets the snapshot at once and an instance taking the upstream
 * over knows which push to resume after. Without Redis there is no other instance and nothing is
 * stored.
 */
export interface SnapshotStore {
  save(personId: number, snapshot: LiveSnapshot, pushSeq: number | null): void;
  load(personId: number): Promise<StoredLive | null>;
  /** Sends the person's waiting save now (before the lease is given up: the next holder reads it). */
  sendNow(personId: number): void;
}

export class NoSnapshotStore implements SnapshotStore {
  save(): void {}
  sendNow(): void {}
  async load(): Promise<StoredLive | null> {
    return null;
  }
}

/**
 * Keeps the last state per person for an hour. A save is sent after the event it follows was
 * emitted (through the same Redis connection, so Redis has the event before the number): an
 * instance that dies between the two makes its successor send that one event again rather than
 * lose it.
 *
 * Saves are coalesced: a person's saves made in one turn of the event loop become one SET of the
 * last of them, sent at the end of that turn (setImmediate). At 2,000 events/s a SET (and a
 * JSON.stringify of the whole snapshot) per event cost the gateway as much as the events
 * themselves (issue 31, ninth pass); the state stored is the same, only the intermediate ones
 * are skipped. A save is still sent after its event (the event's XADD was queued first, on the
 * same connection), and a load of a person sends that person's waiting save first.
 */
export class RedisSnapshotStore implements SnapshotStore {
  /** The last save per person not sent yet. */
  private readonly pending = new Map<number, StoredLive>();
  private flushing: NodeJS.Immediate | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    /** Called before a SET is sent: the broadcasts waiting for the end of the turn go first (redis-broadcast-batching.ts). */
    private readonly beforeSend: () => void = () => undefined,
  ) {}

  private key(personId: number): string {
    return `${this.keyPrefix}snapshot:${personId}`;
  }

  save(personId: number, snapshot: LiveSnapshot, pushSeq: number | null): void {
    this.pending.set(personId, { snapshot, pushSeq });
    this.flushing ??= setImmediate(() => this.flush());
  }

  /** Sends every waiting save (one SET per person). */
  flush(): void {
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = null;
    for (const personId of [...this.pending.keys()]) this.send(personId);
  }

  sendNow(personId: number): void {
    this.send(personId);
  }

  private send(personId: number): void {
    const stored = this.pending.get(personId);
    if (!stored) return;
    this.pending.delete(personId);
    // A save counts events already broadcast: their stream entry must reach Redis before it.
    this.beforeSend();
    this.redis
      .set(this.key(personId), JSON.stringify({ ...stored.snapshot, pushSeq: stored.pushSeq }), 'PX', 3_600_000)
      .catch(() => undefined);
  }

  async load(personId: number): Promise<StoredLive | null> {
    // This instance's own latest state is sent before it is read back.
    this.send(personId);
    const raw = await this.redis.get(this.key(personId)).catch(() => null);
    if (!raw) return null;
    const json = JSON.parse(raw) as { pushSeq?: unknown };
    const parsed = LiveSnapshotSchema.safeParse(json);
    if (!parsed.success) return null;
    return { snapshot: parsed.data, pushSeq: Number.isInteger(json.pushSeq) ? (json.pushSeq as number) : null };
  }
}
