import { afterEach, describe, expect, it } from 'vitest';
import { emptySnapshot, normalizeUpstream, type LiveEvent } from '@pm/shared';
import {
  connectionLive,
  connectionLost,
  liveState,
  receiveEvent,
  receiveSnapshot,
  resetLive,
} from '../states/liveState';
import { askedPause, retryDelay } from '../utils/liveSocket';
import { ownActionKey, rememberOwnAction, takeOwnEcho } from '../utils/ownActions';

const snapshot = (version: number, untreated: number) => ({
  ...emptySnapshot(),
  complaints: { untreated, processing: 0, completed: 0 },
  version,
});
const newComplaint = normalizeUpstream({ channelType: 8, messageType: 50, messageId: 1, dataId: 9 }) as LiveEvent;

describe('live state', () => {
  afterEach(resetLive);

  it('when nothing was loaded yet, then events do not count up from an unknown 0', () => {
    expect(liveState.loaded).toBe(false);
    receiveEvent(newComplaint);
    expect(liveState.snapshot.complaints.untreated).toBe(0);
    receiveSnapshot(snapshot(5, 3));
    expect(liveState.loaded).toBe(true);
    receiveEvent(newComplaint);
    expect(liveState.snapshot.complaints.untreated).toBe(4);
  });

  it('when the connection comes back (a restarted gateway numbers afresh), then its snapshot wins over the older-looking version', () => {
    connectionLive();
    receiveSnapshot(snapshot(40, 3));
    expect(receiveSnapshot(snapshot(10, 2))).toBe(false);
    connectionLost('reconnecting');
    expect(liveState.status).toBe('reconnecting');
    const since = liveState.since;
    expect(since).not.toBeNull();
    connectionLost('offline');
    expect(liveState.since).toBe(since);
    connectionLive();
    expect(liveState.since).toBeNull();
    expect(receiveSnapshot(snapshot(2, 7))).toBe(true);
    expect(liveState.snapshot.complaints.untreated).toBe(7);
  });

  it("when an event reaches a reconnected tab before the gateway's older snapshot, then the snapshot is brought up to it", () => {
    connectionLive();
    receiveSnapshot(snapshot(40, 3));
    connectionLost('reconnecting');
    connectionLive();
    // The holder published event 12 before the snapshot it stored (version 11) reached this tab.
    receiveEvent({ ...newComplaint, version: 12 });
    expect(receiveSnapshot(snapshot(11, 5))).toBe(true);
    expect(liveState.snapshot.complaints.untreated).toBe(6);
    expect(liveState.snapshot.version).toBe(12);
    // One the snapshot counts already is not counted twice, and later snapshots replace as before.
    connectionLive();
    receiveEvent({ ...newComplaint, version: 20 });
    receiveSnapshot(snapshot(20, 9));
    expect(liveState.snapshot.complaints.untreated).toBe(9);
  });

  it('when the gateway refuses again and again, then the pause doubles up to half a minute', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => retryDelay(n, 0))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(retryDelay(0, 0.999)).toBeLessThanOrEqual(2000);
  });

  it('when a busy gateway names a pause (503 with retryAfter), then the tab waits at least that long', () => {
    const busy = Object.assign(new Error('busy'), { data: { code: 503, retryAfter: 7 } });
    expect(askedPause(busy, 0)).toBe(7000);
    expect(askedPause(busy, 0.999)).toBeLessThanOrEqual(8000);
    expect(askedPause(Object.assign(new Error('down'), { data: { code: 502 } }), 0)).toBe(0);
  });

  it("when this tab's own change comes back live, then it is recognised once", () => {
    const key = ownActionKey('workorders', 'complaint', 9, 2);
    expect(takeOwnEcho(key)).toBe(false);
    rememberOwnAction(key, 1000);
    expect(takeOwnEcho(ownActionKey('workorders', 'complaint', 9, 3), 1500)).toBe(false);
    expect(takeOwnEcho(key, 1500)).toBe(true);
    expect(takeOwnEcho(key, 1600)).toBe(false);
    rememberOwnAction(key, 1000);
    expect(takeOwnEcho(key, 60_000)).toBe(false);
  });
});
