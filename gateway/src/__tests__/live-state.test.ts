import { describe, expect, it } from 'vitest';
import { normalizeUpstream, type LiveEvent } from '@pm/shared';
import { LiveState } from '../live-state';

const counters = {
  unreadByType: { '11': 2 },
  chatUnread: 1,
  complaints: { untreated: 1, processing: 0, completed: 0 },
  eventOrders: { untreated: 0, processing: 0, completed: 0 },
};

describe('LiveState', () => {
  it('when counters are loaded and events applied, then every change raises the version by one', () => {
    const state = new LiveState();
    expect(state.replace(counters).version).toBe(1);
    const e = normalizeUpstream({ channelType: 8, messageType: 50, messageId: 3 })!;
    const next = state.apply(e);
    expect(next.version).toBe(2);
    expect(next.complaints.untreated).toBe(2);
    expect(next.unreadByType['50']).toBe(1);
  });

  it('when another instance already published a newer version, then reconciliation continues above it', () => {
    const state = new LiveState();
    expect(state.replace(counters, 40).version).toBe(41);
    expect(state.loaded).toBe(true);
  });

  // Issue 14: the api numbers each person's pushes and answers counters as of a number.
  const complaint = (messageId: number): LiveEvent =>
    normalizeUpstream({ channelType: 8, messageType: 50, messageId, dataId: messageId })!;

  it('when pushes arrive while a reload is on its way, then the reload keeps those newer than its number', () => {
    const state = new LiveState();
    state.streamStartsAfter(10);
    const ticket = state.beginReload()!;
    state.applyPush(complaint(1), 11);
    state.applyPush(complaint(2), 12);
    // The api read the counters after push 11 committed but before push 12.
    const reloaded = state.finishReload(
      ticket,
      { ...counters, complaints: { untreated: 5, processing: 0, completed: 0 } },
      11,
    );
    expect(reloaded?.complaints.untreated).toBe(6);
    expect(reloaded?.unreadByType['50']).toBe(1);
  });

  it('when the counters are newer than the pushes applied, then they wait for those pushes and replace the state after the last', () => {
    const state = new LiveState();
    state.streamStartsAfter(10);
    const ticket = state.beginReload()!;
    const counted = { ...counters, complaints: { untreated: 7, processing: 0, completed: 0 } };
    expect(state.finishReload(ticket, counted, 12)).toBeNull();
    expect(state.applyPush(complaint(1), 11)?.reloaded).toBeNull();
    const last = state.applyPush(complaint(2), 12);
    expect(last?.reloaded?.complaints.untreated).toBe(7);
    expect(state.snapshot.complaints.untreated).toBe(7);
    expect(state.applyPush(complaint(3), 13)?.snapshot.complaints.untreated).toBe(8);
  });

  it('when a push is sent again (after a reconnect or a takeover), then it is not applied twice', () => {
    const state = new LiveState();
    state.streamStartsAfter(3);
    expect(state.applyPush(complaint(1), 4)).not.toBeNull();
    expect(state.applyPush(complaint(1), 4)).toBeNull();
    expect(state.applyPush(complaint(0), 2)).toBeNull();
    expect(state.snapshot.complaints.untreated).toBe(1);
  });

  it("when the api's stream starts over below the last number (a restored database), then newer numbers are applied again", () => {
    const state = new LiveState();
    state.streamStartsAfter(50);
    state.applyPush(complaint(1), 51);
    state.streamStartsAfter(2);
    expect(state.applyPush(complaint(2), 3)).not.toBeNull();
    expect(state.pushSeq).toBe(3);
  });
});
