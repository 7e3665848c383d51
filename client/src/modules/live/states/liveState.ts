import { proxy } from 'valtio';
import { applyEvent, emptySnapshot, snapshotAfterConnect, type LiveEvent, type LiveSnapshot } from '@pm/shared';

/**
 * The tab's link to the gateway, as the top bar shows it: `connecting` until the first
 * connection, `live`, `reconnecting` after a loss (or while the gateway asks the tab to wait its
 * turn), `offline` once reconnecting took longer than a moment.
 */
export type ConnectionStatus = 'connecting' | 'live' | 'reconnecting' | 'offline';

interface LiveStateShape {
  snapshot: LiveSnapshot;
  connected: boolean;
  /** A snapshot arrived since connecting: the counters are the gateway's. */
  synced: boolean;
  /** A snapshot arrived at least once: before that the counters are unknown, not 0. */
  loaded: boolean;
  status: ConnectionStatus;
  /** When the connection was lost (or first failed), ms since 1970; null while live. */
  since: number | null;
  /** How many snapshots arrived (connect, upstream reconnect, reconciliation): screens re-read on each. */
  snapshots: number;
  /** How many times the tab (re)connected: alarms missed while away are read at once (issue 35). */
  connects: number;
}

/**
 * The person's live counters (DESIGN §3): the gateway's snapshot plus the events applied since.
 * Read with useSnapshot(liveState); change only through the actions below.
 */
export const liveState = proxy<LiveStateShape>({
  snapshot: emptySnapshot(),
  connected: false,
  synced: false,
  loaded: false,
  status: 'connecting',
  since: null,
  snapshots: 0,
  connects: 0,
});

/** After a (re)connect the next snapshot is the server's truth, whatever its version. */
let acceptAnyVersion = true;
/** The events since the last (re)connect, until its first snapshot (snapshotAfterConnect). */
let sinceConnect: LiveEvent[] = [];

/**
 * 'snapshot' replaces the state when it is newer than what this tab holds, and always right
 * after a (re)connect (a restarted gateway numbers its versions afresh).
 */
export function receiveSnapshot(s: LiveSnapshot): boolean {
  liveState.synced = true;
  liveState.loaded = true;
  liveState.snapshots += 1;
  if (!acceptAnyVersion && s.version < liveState.snapshot.version) return false;
  liveState.snapshot = acceptAnyVersion ? snapshotAfterConnect(s, sinceConnect) : s;
  acceptAnyVersion = false;
  sinceConnect = [];
  return true;
}

export function receiveEvent(e: LiveEvent): void {
  if (acceptAnyVersion) sinceConnect.push(e);
  // Events before the first snapshot would count up from unknown zeros; the snapshot follows.
  if (!liveState.loaded) return;
  liveState.snapshot = applyEvent(liveState.snapshot, e);
}

/** A message was read in this tab: its type's unread count drops by one at once. */
export function countMessageRead(messageType: number): void {
  const current = liveState.snapshot.unreadByType[messageType] ?? 0;
  if (current > 0) liveState.snapshot.unreadByType[messageType] = current - 1;
}

export function connectionLive(): void {
  acceptAnyVersion = true;
  sinceConnect = [];
  liveState.connected = true;
  liveState.connects += 1;
  liveState.status = 'live';
  liveState.since = null;
}

/** The connection is gone or refused for now; `since` keeps the first moment of the loss (`at`). */
export function connectionLost(status: 'reconnecting' | 'offline', at: number = Date.now()): void {
  liveState.connected = false;
  liveState.synced = false;
  liveState.status = status;
  liveState.since ??= at;
}

/**
 * The tab closed its connection (signed out, or reconnecting with other permissions): the last
 * counters stay readable, marked as no longer live.
 */
export function connectionClosed(): void {
  acceptAnyVersion = true;
  sinceConnect = [];
  connectionLost('offline');
}

/** Back to nothing known (sign-out): the next person's counters start unknown. */
export function resetLive(): void {
  acceptAnyVersion = true;
  sinceConnect = [];
  Object.assign(liveState, {
    snapshot: emptySnapshot(),
    connected: false,
    synced: false,
    loaded: false,
    status: 'connecting',
    since: null,
  });
}
