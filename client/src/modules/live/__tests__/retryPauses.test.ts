import { describe, expect, it } from 'vitest';
import { firstReconnectPause } from '@pm/shared';
import { RetryPauses, STABLE_AFTER_MS } from '../utils/liveSocket';

// No jitter in these cases (random = 0): the pauses are 1 s doubling to 30 s.
const next = (p: RetryPauses, now: number) => p.next(now, 0);

describe('the pause before a tab tries its gateway again', () => {
  it('grows while the gateway keeps refusing the handshake', () => {
    const p = new RetryPauses();
    expect([1, 2, 3, 4, 5, 6, 7].map((s) => next(p, s * 1000))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
  });

  it('keeps growing when the gateway accepts the tab and closes it soon after (its upstream gave up)', () => {
    const p = new RetryPauses();
    let now = 0;
    const pauses: number[] = [];
    for (let i = 0; i < 4; i++) {
      p.connected(now);
      now += 2000; // closed by the gateway two seconds later
      pauses.push(next(p, now));
    }
    expect(pauses).toEqual([1000, 2000, 4000, 8000]);
  });

  it('starts from a second again after a connection that held', () => {
    const p = new RetryPauses();
    next(p, 0);
    next(p, 1000);
    p.connected(5000);
    expect(next(p, 5000 + STABLE_AFTER_MS)).toBe(1000);
  });
});

describe('the pause before a tab reconnects after losing its gateway (issue 34)', () => {
  it('when tabs lose their gateway at once, then their first pauses spread from 0.5 to 5 s, drawn anew each time', () => {
    expect(firstReconnectPause(0)).toBe(500);
    expect(firstReconnectPause(0.5)).toBe(2750);
    expect(firstReconnectPause(0.999_999)).toBe(5000);
    const drawn = new Set(Array.from({ length: 50 }, () => firstReconnectPause()));
    expect(drawn.size).toBeGreaterThan(1);
    for (const pause of drawn) expect(pause).toBeGreaterThanOrEqual(500);
  });
});
