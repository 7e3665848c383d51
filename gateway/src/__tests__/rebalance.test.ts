import { describe, expect, it } from 'vitest';
import type { TabSocket } from '../gateway-io';
import { DEFAULT_REBALANCE, isBusy, pickTabs, stillLanding, tabsToMove } from '../rebalance';

const tab = (personId: number) => ({ data: { personId } }) as unknown as TabSocket;

describe('how many tabs an instance moves', () => {
  it('when it is alone, or within its share plus the slack, then none', () => {
    expect(tabsToMove(1000, [1000], DEFAULT_REBALANCE)).toBe(0);
    expect(tabsToMove(540, [540, 460], DEFAULT_REBALANCE)).toBe(0);
  });

  it('when a new instance holds none, then half the excess, at most maxPerTick a round', () => {
    expect(tabsToMove(600, [600, 0], DEFAULT_REBALANCE)).toBe(150);
    expect(tabsToMove(20_000, [20_000, 0], DEFAULT_REBALANCE)).toBe(DEFAULT_REBALANCE.maxPerTick);
    expect(tabsToMove(0, [600, 0], DEFAULT_REBALANCE)).toBe(0);
  });
});

describe('waiting for moved tabs to land', () => {
  it('when the instances together hold fewer tabs than before the last move, then it waits, until they are back or the wait ends', () => {
    const landing = { total: 48, others: 10, moved: 6, until: 10_000 };
    expect(stillLanding(null, 42, 10, 0)).toBe(false);
    expect(stillLanding(landing, 42, 10, 1_000)).toBe(true);
    expect(stillLanding(landing, 48, 10, 1_000)).toBe(false);
    expect(stillLanding(landing, 42, 10, 10_000)).toBe(false);
  });

  it('when the other instances have not grown by the moved tabs, then it keeps waiting past the old fixed 10 s; once they have, it goes on', () => {
    const landing = { total: 5_000, others: 0, moved: 400, until: DEFAULT_REBALANCE.landingMs };
    // 30 s on, the tabs still queued somewhere: the others hold 100 of the 400.
    expect(stillLanding(landing, 4_700, 100, 30_000)).toBe(true);
    // They landed (the total is still lower: some tabs closed meanwhile).
    expect(stillLanding(landing, 4_990, 390, 30_000)).toBe(false);
  });
});

describe('busy instances', () => {
  const at = 100_000;
  it('when an instance has many handshakes in flight, takes many new connections, its rounds are late, or it has not spoken for a round and a half, then it is busy', () => {
    expect(isBusy({ tabs: 10, at, handshakes: 3, lateMs: 20 }, at, DEFAULT_REBALANCE)).toBe(false);
    expect(isBusy({ tabs: 10, at, handshakes: 51 }, at, DEFAULT_REBALANCE)).toBe(true);
    expect(isBusy({ tabs: 10, at, lateMs: 900 }, at, DEFAULT_REBALANCE)).toBe(true);
    expect(isBusy({ tabs: 10, at, arrivalsPerSecond: 300 }, at, DEFAULT_REBALANCE)).toBe(true);
    expect(isBusy({ tabs: 10, at: at - 3_100 }, at, DEFAULT_REBALANCE)).toBe(true);
  });
});

describe('which tabs move', () => {
  it('when tabs are picked, then whole persons go, those with the fewest tabs first', () => {
    const tabs = [tab(1), tab(2), tab(1), tab(3), tab(1), tab(2)];
    const picked = pickTabs(tabs, 2);
    expect(picked.map((t) => t.data.personId)).toEqual([3, 2, 2]);
    expect(pickTabs(tabs, 0)).toEqual([]);
  });
});
