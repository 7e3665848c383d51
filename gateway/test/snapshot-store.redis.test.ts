import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptySnapshot, type LiveSnapshot } from '@pm/shared';
import { RedisSnapshotStore } from '../src/snapshot-store';

// The snapshot store on a real Redis (issue 31, ninth pass: at 2,000 events/s a SET per event
// took the gateway's event loop). The client is real; it is only wrapped to count the SETs sent.
const redisUrl = process.env.TEST_REDIS_URL as string;
const prefix = `pm-snapshot-test:${randomUUID()}:`;
let redis: Redis;
let sets = 0;
let store: RedisSnapshotStore;

const snapshot = (version: number): LiveSnapshot => ({ ...emptySnapshot(), version });
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

beforeAll(() => {
  redis = new Redis(redisUrl, { enableAutoPipelining: true });
  const counting = new Proxy(redis, {
    get(target, name, receiver) {
      if (name === 'set') sets++;
      const value = Reflect.get(target, name, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  store = new RedisSnapshotStore(counting, prefix);
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe('RedisSnapshotStore', () => {
  it('sends one SET per person for the saves of one turn, the last of them', async () => {
    sets = 0;
    for (let seq = 1; seq <= 500; seq++) {
      store.save(1, snapshot(seq), seq);
      store.save(2, snapshot(seq * 2), seq * 2);
    }
    await nextTurn();
    expect(sets).toBe(2);
    const [one, two] = await Promise.all([store.load(1), store.load(2)]);
    expect(one).toEqual({ snapshot: snapshot(500), pushSeq: 500 });
    expect(two).toEqual({ snapshot: snapshot(1000), pushSeq: 1000 });
  });

  it('reads back a save made in the same turn (a load sends the waiting save first)', async () => {
    store.save(3, snapshot(7), 7);
    const loaded = await store.load(3);
    expect(loaded).toEqual({ snapshot: snapshot(7), pushSeq: 7 });
  });

  it('keeps what is stored in Redis for the next holder (a new store on the same prefix reads it)', async () => {
    store.save(4, snapshot(9), null);
    store.flush();
    const successor = new RedisSnapshotStore(redis, prefix);
    expect(await successor.load(4)).toEqual({ snapshot: snapshot(9), pushSeq: null });
  });
});
