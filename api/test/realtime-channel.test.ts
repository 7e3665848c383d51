// The upstream channel on a bare HTTP server with an in-memory token table: upgrade checks,
// heartbeat, idle close, revocation, delivery. The PostgreSQL fan-out is in realtime-channel.postgres.test.ts.
import { describe, expect, it } from 'vitest';
import { realtimeInstances } from './kit/realtime-instances';
import { refusedStatus } from './kit';
import type { LiveCounters } from '@pm/shared';
import type { Caller } from '../src/http/caller';
import type { RealtimeHandle } from '../src/modules/realtime';
import type { BusEnvelope, EventBus } from '../src/modules/realtime/event-bus';

const { start, open } = realtimeInstances();

describe('upstream channel', () => {
  it('when the token belongs to the person, then the upgrade succeeds and heartbeats are answered', async () => {
    const api = await start();
    const s = await open(api.url, 'token-a', 1);
    s.ws.send(JSON.stringify({ channelType: 'heartbeat', time: 123 }));
    const answer = await s.waitFor((m) => m.channelType === 'heartbeat');
    expect(typeof answer.time).toBe('number');
    expect(api.realtime.connectionCount(1)).toBe(1);
  });

  it("when the token is another person's or unknown, then the upgrade is refused with 401", async () => {
    const api = await start();
    expect(await refusedStatus(api.url, 'token-b', 1)).toBe(401);
    expect(await refusedStatus(api.url, 'no-such-token', 1)).toBe(401);
    expect(api.realtime.connectionCount()).toBe(0);
  });

  it('when the path is not /{token}/{personId}, then the upgrade is refused with 404', async () => {
    const api = await start();
    expect(await refusedStatus(`${api.url}/a`, 'token-a', 1)).toBe(404);
  });

  it('when a push names a person, then every connection of that person gets it once and others none', async () => {
    const api = await start();
    const a1 = await open(api.url, 'token-a', 1);
    const a2 = await open(api.url, 'token-a2', 1);
    const b = await open(api.url, 'token-b', 2);
    await api.realtime.publish([1, 1], { channelType: 8, messageType: 50, messageId: 7, dataId: 3 });
    await api.realtime.publish([2], { channelType: 9, dataId: 99 });
    await a1.waitFor((m) => m.channelType === 8);
    await a2.waitFor((m) => m.channelType === 8);
    await b.waitFor((m) => m.channelType === 9);
    expect(a1.messages.filter((m) => m.channelType === 8)).toEqual([
      { channelType: 8, messageType: 50, messageId: 7, dataId: 3 },
    ]);
    expect(a1.messages.some((m) => m.channelType === 9)).toBe(false);
    expect(b.messages.some((m) => m.channelType === 8)).toBe(false);
  });

  it('when a connection sends nothing for the idle time, then it is closed with 4000', async () => {
    const api = await start({ idleMs: 300 });
    const s = await open(api.url, 'token-a', 1);
    expect(await s.closed).toBe(4000);
  });

  it('when a token is revoked, then its connections close with 4001 and other tokens stay open', async () => {
    const api = await start();
    const revoked = await open(api.url, 'token-a', 1);
    const kept = await open(api.url, 'token-a2', 1);
    await api.realtime.revokeToken('token-a');
    expect(await revoked.closed).toBe(4001);
    kept.ws.send(JSON.stringify({ channelType: 'heartbeat', time: 1 }));
    await kept.waitFor((m) => m.channelType === 'heartbeat');
  });

  it('when a person is terminated, then the peer sees 1006', async () => {
    const api = await start();
    const s = await open(api.url, 'token-a', 1);
    api.realtime.terminate(1);
    expect(await s.closed).toBe(1006);
  });
});

describe('kept live counters and the bus', () => {
  /** A bus whose envelopes wait until released: PostgreSQL's NOTIFY round trip, made long. */
  function heldBus(): EventBus & { release(): void } {
    let handler: ((e: BusEnvelope) => void) | undefined;
    const held: BusEnvelope[] = [];
    return {
      async publish(e) {
        held.push(e);
      },
      onEnvelope(h) {
        handler = h;
      },
      async close() {},
      release() {
        for (const e of held.splice(0)) handler?.(e);
      },
    };
  }
  const caller = { personId: 1, kind: 'staff', companyId: 1, housingEstateId: 1, perms: new Set<string>() } as Caller;
  const keep = (realtime: RealtimeHandle, pushSeq: number) => {
    const load = realtime.counters.begin(caller);
    expect(load).not.toBeNull();
    realtime.counters.end(load!, caller, { pushSeq } as unknown as LiveCounters);
    expect(realtime.counters.get(caller)).toBeDefined();
  };

  it.each(['publishStamped', 'publish'] as const)(
    'when a change commits here (%s), then its persons’ kept counters are gone before the bus brings the push back',
    async (how) => {
      const bus = heldBus();
      const api = await start({ bus });
      const s = await open(api.url, 'token-a', 1);
      keep(api.realtime, 4);
      const message = { channelType: 9 as const, dataId: 5 };
      if (how === 'publishStamped') await api.realtime.publishStamped([{ personIds: ['1'], message, seqs: [5] }]);
      else await api.realtime.publish([1], message);
      // The caller's next counters call from this process reads the database, which counts the change.
      expect(api.realtime.counters.get(caller)).toBeUndefined();
      bus.release();
      await s.waitFor((m) => m.dataId === 5);
    },
  );
});
