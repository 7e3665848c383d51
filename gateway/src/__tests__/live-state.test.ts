import { describe, expect, it } from 'vitest';
import { normalizeUpstream } from '@pm/shared';
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
});
