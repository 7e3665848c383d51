// The upstream channel's fan-out between api instances over PostgreSQL LISTEN/NOTIFY
// (runs when TEST_DATABASE_URL is set: see vitest.config.ts).
import { describe, expect, it } from 'vitest';
import { realtimeInstances } from './kit/realtime-instances';

const { start, open } = realtimeInstances();

describe('upstream channel over PostgreSQL LISTEN/NOTIFY', () => {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  const channel = `rt_test_${process.pid}_${Date.now()}`;

  it('when two instances share a database, then an event published on either reaches every connection exactly once', async () => {
    const one = await start({ databaseUrl, channel });
    const two = await start({ databaseUrl, channel });
    const onOne = await open(one.url, 'token-a', 1);
    const onTwo = await open(two.url, 'token-a2', 1);
    const other = await open(two.url, 'token-b', 2);
    for (let i = 0; i < 20; i++) {
      await (i % 2 ? one : two).realtime.publish([1], { channelType: 8, dataId: i });
    }
    // A large push is chunked under NOTIFY's 8000-byte limit and must arrive whole.
    const big = 'x'.repeat(20_000) + '—漢字😀';
    await one.realtime.publish([1, 2], { channelType: 0, dataId: 100, text: big });
    for (const s of [onOne, onTwo]) {
      await s.waitFor((m) => m.dataId === 100);
      const ids = s.messages.filter((m) => m.channelType === 8).map((m) => m.dataId);
      expect(ids.sort((a, b) => Number(a) - Number(b))).toEqual([...Array(20).keys()]);
      expect(s.messages.filter((m) => m.dataId === 100)).toEqual([{ channelType: 0, dataId: 100, text: big }]);
    }
    await other.waitFor((m) => m.dataId === 100);
    expect(other.messages.filter((m) => m.channelType === 8)).toEqual([]);
  });

  it('when a token is revoked on one instance, then its connection on the other closes with 4001', async () => {
    const one = await start({ databaseUrl, channel });
    const two = await start({ databaseUrl, channel });
    const s = await open(two.url, 'token-a', 1);
    await one.realtime.revokeToken('token-a');
    expect(await s.closed).toBe(4001);
  });
});
