import type { Redis } from 'ioredis';

/**
 * Who holds a person's upstream connection. Without Redis this instance always does; with
 * Redis a key per person (SET NX PX, renewed while held) makes exactly one instance hold it,
 * and when that instance dies the key expires and another takes over.
 */
export interface UpstreamLease {
  readonly ttlMs: number;
  acquire(personId: number): Promise<boolean>;
  /** Extends a held lease; false when it was lost (expired and taken by another instance). */
  renew(personId: number): Promise<boolean>;
  release(personId: number): Promise<void>;
}

export class LocalLease implements UpstreamLease {
  readonly ttlMs = Number.POSITIVE_INFINITY;
  async acquire(): Promise<boolean> {
    return true;
  }
  async renew(): Promise<boolean> {
    return true;
  }
  async release(): Promise<void> {}
}

// Only the holder may extend or delete the key: compare-and-act in one round trip.
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export class RedisLease implements UpstreamLease {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    /** Unique per gateway process. */
    private readonly holderId: string,
    readonly ttlMs: number,
  ) {}

  private key(personId: number): string {
    return `${this.keyPrefix}lease:${personId}`;
  }

  async acquire(personId: number): Promise<boolean> {
    const set = await this.redis.set(this.key(personId), this.holderId, 'PX', this.ttlMs, 'NX');
    if (set === 'OK') return true;
    // Already ours (a retry after a slow answer) counts as held.
    return (await this.redis.get(this.key(personId))) === this.holderId && this.renew(personId);
  }

  async renew(personId: number): Promise<boolean> {
    return (await this.redis.eval(RENEW, 1, this.key(personId), this.holderId, String(this.ttlMs))) === 1;
  }

  async release(personId: number): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.key(personId), this.holderId);
  }
}
