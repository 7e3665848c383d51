import type { Redis } from 'ioredis';
import { LiveSnapshotSchema, type LiveSnapshot } from '@pm/shared';

/**
 * Where the instance holding a person's upstream publishes that person's latest snapshot, so
 * a tab connecting to any other instance gets it at once. Without Redis there is no other
 * instance and nothing is stored.
 */
export interface SnapshotStore {
  save(personId: number, snapshot: LiveSnapshot): void;
  load(personId: number): Promise<LiveSnapshot | null>;
}

export class NoSnapshotStore implements SnapshotStore {
  save(): void {}
  async load(): Promise<LiveSnapshot | null> {
    return null;
  }
}

/** Keeps the last snapshot per person for an hour; writes are coalesced to one per tick. */
export class RedisSnapshotStore implements SnapshotStore {
  private pending = new Map<number, LiveSnapshot>();
  private scheduled = false;

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  private key(personId: number): string {
    return `${this.keyPrefix}snapshot:${personId}`;
  }

  save(personId: number, snapshot: LiveSnapshot): void {
    this.pending.set(personId, snapshot);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const batch = this.pending;
      this.pending = new Map();
      const multi = this.redis.multi();
      for (const [id, s] of batch) multi.set(this.key(id), JSON.stringify(s), 'PX', 3_600_000);
      multi.exec().catch(() => undefined);
    });
  }

  async load(personId: number): Promise<LiveSnapshot | null> {
    const raw = await this.redis.get(this.key(personId)).catch(() => null);
    if (!raw) return null;
    const parsed = LiveSnapshotSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  }
}
