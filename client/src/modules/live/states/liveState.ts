import { proxy } from 'valtio';
import { applyEvent, emptySnapshot, type LiveEvent, type LiveSnapshot } from '@pm/shared';

/**
 * The person's live counters (DESIGN §3): the gateway's snapshot plus the events applied since.
 * Read with useSnapshot(liveState); change only through the actions below.
 */
export const liveState = proxy<{ snapshot: LiveSnapshot; connected: boolean; synced: boolean }>({
  snapshot: emptySnapshot(),
  connected: false,
  /** A snapshot arrived since connecting: the counters are the gateway's. */
  synced: false,
});

/** 'snapshot' replaces the state only when it is newer than what this tab holds. */
export function receiveSnapshot(s: LiveSnapshot): boolean {
  liveState.synced = true;
  if (s.version < liveState.snapshot.version) return false;
  liveState.snapshot = s;
  return true;
}

export function receiveEvent(e: LiveEvent): void {
  liveState.snapshot = applyEvent(liveState.snapshot, e);
}

/** A message was read in this tab: its type's unread count drops by one at once. */
export function countMessageRead(messageType: number): void {
  const current = liveState.snapshot.unreadByType[messageType] ?? 0;
  if (current > 0) liveState.snapshot.unreadByType[messageType] = current - 1;
}

export function resetLive(): void {
  liveState.snapshot = emptySnapshot();
  liveState.connected = false;
  liveState.synced = false;
}
