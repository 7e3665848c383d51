import { proxy } from 'valtio';
import type { SosCall } from '@pm/shared';

/**
 * The SOS calls this console knows are not closed, by id (issue 21). Filled from
 * `GET /disaster/sos/open` on every (re)connect and every snapshot (an upstream reconnect or a
 * gateway takeover sends one), and refreshed on every live SOS event; merging is by id, so a
 * call seen twice (a replayed push and the list) is one call. `shown` is the call the alarm
 * dialog shows.
 */
export const sosAlarms = proxy<{
  calls: Record<number, SosCall>;
  shown: number | null;
  /** A closed call opened from the alarm panel ("View"): shown as it ended. */
  closed: SosCall | null;
  soundBlocked: boolean;
}>({
  calls: {},
  shown: null,
  closed: null,
  soundBlocked: false,
});

/**
 * The list the api answered replaces what is not closed: calls missing from it were closed
 * meanwhile. When the dialog's call left, the dialog moves on to the oldest unacknowledged call;
 * with `reopen` (a (re)connect) it shows that call even when the person had closed the dialog.
 */
export function mergeOpenCalls(list: readonly SosCall[], reopen = false): void {
  const next: Record<number, SosCall> = {};
  for (const c of list) next[c.id] = c;
  sosAlarms.calls = next;
  const gone = sosAlarms.shown !== null && !next[sosAlarms.shown] && sosAlarms.closed?.id !== sosAlarms.shown;
  if (gone || (reopen && sosAlarms.shown === null)) showCall(firstUnacknowledged());
}

/** One call as the api answered it (closed calls leave the list). */
export function mergeCall(call: SosCall): void {
  if (call.state === 'closed') {
    delete sosAlarms.calls[call.id];
    if (sosAlarms.shown === call.id) sosAlarms.closed = call;
  } else sosAlarms.calls[call.id] = call;
}

/** The call the dialog shows, if any. */
export function shownCall(s: typeof sosAlarms): SosCall | null {
  if (s.shown === null) return null;
  return s.calls[s.shown] ?? (s.closed?.id === s.shown ? s.closed : null);
}

/** Unacknowledged calls first (oldest first), then acknowledged ones. */
export function orderedCalls(calls: Record<number, SosCall>): SosCall[] {
  const rank = (c: SosCall) => (c.state === 'open' ? 0 : 1);
  return Object.values(calls).sort(
    (a, b) => rank(a) - rank(b) || a.createdAt.localeCompare(b.createdAt) || a.id - b.id,
  );
}

export function firstUnacknowledged(): number | null {
  return orderedCalls(sosAlarms.calls).find((c) => c.state === 'open')?.id ?? null;
}

export function showCall(id: number | null): void {
  sosAlarms.shown = id;
  if (sosAlarms.closed?.id !== id) sosAlarms.closed = null;
}
