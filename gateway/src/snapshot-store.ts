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
}

export class NoSnapshotStore implements SnapshotStore {
  save(): void {}
  async load(): Promise<StoredLive | null> {
    return null;
  }
}

/**
 * Keeps the last state per person for an hour. Each save is sent at once, right after the event
 * it follows was emitted (through the same Redis connection, so Redis has the event before the
 * number): an instance that dies between the two makes its successor send that one event again
 * rather than lose it.
 */
export class RedisSnapshotStore implements SnapshotStore {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  private key(personId: number): string {
    return `${this.keyPrefix}snapshot:${personId}`;
  }

  save(personId: number, snapshot: LiveSnapshot, pushSeq: number | null): void {
    this.redis
      .set(this.key(personId), JSON.stringify({ ...snapshot, pushSeq }), 'PX', 3_600_000)
      .catch(() => undefined);
  }

  async load(personId: number): Promise<StoredLive | null> {
    const raw = await this.redis.get(this.key(personId)).catch(() => null);
    if (!raw) return null;
    const json = JSON.parse(raw) as { pushSeq?: unknown };
    const parsed = LiveSnapshotSchema.safeParse(json);
    if (!parsed.success) return null;
    return { snapshot: parsed.data, pushSeq: Number.isInteger(json.pushSeq) ? (json.pushSeq as number) : null };
  }
}
