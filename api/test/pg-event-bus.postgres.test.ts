// The PostgreSQL bus under many publishes at once (issue 31: 2,000 background events/s queued
// every send's NOTIFY behind them). Runs when TEST_DATABASE_URL is set (vitest.config.ts).
import { afterEach, describe, expect, it } from 'vitest';
import type { BusEnvelope, EventBus } from '../src/modules/realtime/event-bus';
import { createPgEventBus } from '../src/modules/realtime/pg-event-bus';

const databaseUrl = process.env.TEST_DATABASE_URL as string;
const buses: EventBus[] = [];
afterEach(async () => {
  await Promise.all(buses.splice(0).map((b) => b.close()));
});

async function bus(channel: string): Promise<{ bus: EventBus; received: BusEnvelope[] }> {
  const b = await createPgEventBus({ connectionString: databaseUrl, channel });
  buses.push(b);
  const received: BusEnvelope[] = [];
  b.onEnvelope((e) => received.push(e));
  return { bus: b, received };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 20));
}

describe('PostgreSQL event bus', () => {
  it('when 2,000 envelopes are published at once, then every instance receives each once, whole, in the order they were published', async () => {
    const channel = `bus_test_${process.pid}_${Date.now()}`;
    const one = await bus(channel);
    const two = await bus(channel);
    const big = 'x'.repeat(20_000) + '—漢字😀';
    const envelopes: BusEnvelope[] = Array.from({ length: 2000 }, (_, i) => ({
      kind: 'push',
      personIds: [String(i % 7)],
      message: i === 1000 ? { channelType: 0, dataId: i, text: big } : { channelType: 9, dataId: i },
    }));
    await Promise.all(envelopes.map((e) => one.bus.publish(e)));
    for (const side of [one, two]) {
      await until(() => side.received.length >= envelopes.length);
      expect(side.received.map((e) => (e.kind === 'push' ? e.message.dataId : null))).toEqual(
        envelopes.map((_, i) => i),
      );
      expect(side.received[1000]).toEqual(envelopes[1000]);
    }
  });

  it('when a publish fails, then only its own caller sees the error and later publishes still arrive', async () => {
    const channel = `bus_test_${process.pid}_${Date.now()}_f`;
    const one = await bus(channel);
    const tooLarge = {
      kind: 'push',
      personIds: ['1'],
      message: { channelType: 0, text: 'y'.repeat(1_000_001) },
    } as const;
    const results = await Promise.allSettled([
      one.bus.publish({ kind: 'push', personIds: ['1'], message: { channelType: 9, dataId: 1 } }),
      one.bus.publish(tooLarge as unknown as BusEnvelope),
      one.bus.publish({ kind: 'push', personIds: ['1'], message: { channelType: 9, dataId: 2 } }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    await until(() => one.received.length >= 2);
    expect(one.received.map((e) => (e.kind === 'push' ? e.message.dataId : null))).toEqual([1, 2]);
  });
});
