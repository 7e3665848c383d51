import type { Redis } from 'ioredis';

/**
 * Who holds a person's upstream connection. Without Redis this instance always does; with
 * Redis a key per person (renewed while held) makes exactly one instance hold it, and when that
 * instance dies another takes over: at once when it sees the holder gone from Redis, at the
 * latest when the key expires.
 */
export interface UpstreamLease {
  readonly ttlMs: number;
  acquire(personId: number): Promise<boolean>;
  /** Extends a held lease; false when it was lost (expired and taken by another instance). */
  renew(personId: number): Promise<boolean>;
  release(personId: number): Promise<void>;
  /** Stops taking part (shutdown). */
  close(): Promise<void>;
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
  async close(): Promise<void> {}
}

/**
 * Take the key when it is free, ours, or held by an instance that is no longer connected to
 * Redis: every instance keeps a subscription to its own liveness channel, and Redis drops it the
 * moment the instance's connection closes (a killed process's sockets are closed by its kernel).
 */
const ACQUIRE = `
local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
if holder and redis.call('pubsub', 'numsub', ARGV[3] .. holder)[2] > 0 then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;
// Only the holder may extend or delete the key: compare-and-act in one round trip.
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export class RedisLease implements UpstreamLease {
  /** Subscribed to this instance's liveness channel while it may hold leases. */
  private readonly alive: Redis;
  private readonly ready: Promise<unknown>;

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    /** Unique per gateway process. */
    private readonly holderId: string,
    readonly ttlMs: number,
  ) {
    this.alive = redis.duplicate();
    this.alive.on('error', () => undefined); // reconnects (and subscribes again) on its own
    this.ready = this.alive.subscribe(this.aliveChannel(holderId)).catch(() => undefined);
  }

  private key(personId: number): string {
    return `${this.keyPrefix}lease:${personId}`;
  }

  private aliveChannel(holderId: string): string {
    return `${this.keyPrefix}alive:${holderId}`;
  }

  async acquire(personId: number): Promise<boolean> {
    await this.ready;
    // Without our own liveness subscription the others would take the lease straight back.
    if (this.alive.status !== 'ready') return false;
    const taken = await this.redis.eval(
      ACQUIRE,
      1,
      this.key(personId),
      this.holderId,
      String(this.ttlMs),
      this.aliveChannel(''),
    );
    return taken === 1;
  }

  async renew(personId: number): Promise<boolean> {
    return (await this.redis.eval(RENEW, 1, this.key(personId), this.holderId, String(this.ttlMs))) === 1;
  }

  async release(personId: number): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.key(personId), this.holderId);
  }

  async close(): Promise<void> {
    await this.alive.quit().catch(() => undefined);
  }
}
