import { proxy } from 'valtio';
import type { SosCall } from '@pm/shared';

/**
 * The SOS calls this console knows are not closed, by id (issue 21). Filled from
 * `GET /disaster/sos/open` on every (re)connect and every snapshot (an upstream reconnect or a
 * gateway takeover sends one), and refreshed on every live SOS event; merging is by id, so a
 * call seen twice (a replayed push and the list) is one call. `shown` is the call the alarm
 * dialog shows.
 *
 * When the dialog opens by itself (the rule, issue 21):
 * - a new call (live `sos` event) opens it: nobody could have seen it yet;
 * - a re-announcement (live `sosAgain`, every SOS_REANNOUNCE_MS while nobody acknowledges the
 *   call) opens it again even for a call the person already saw and dismissed: that is the point
 *   of announcing it again;
 * - a snapshot (connect, reconnect, takeover, page reload) opens it only for an unacknowledged
 *   call this person was never shown (`seen`), e.g. one raised while the screen was away. A call
 *   the person saw and dismissed stays in the alarm bell and the alarm panel, and does not pop
 *   up again on every reconnect.
 * `seen` is kept per person in localStorage, so a reload or another tab of the same person
 * follows the same rule.
 */
export const sosAlarms = proxy<{
  calls: Record<number, SosCall>;
  shown: number | null;
  /** A closed call opened from the alarm panel ("View"): shown as it ended. */
  closed: SosCall | null;
  soundBlocked: boolean;
  /** The calls this person has been shown in the alarm dialog (only calls not closed are kept). */
  seen: Record<number, true>;
}>({
  calls: {},
  shown: null,
  closed: null,
  soundBlocked: false,
  seen: {},
});

let seenKey: string | null = null;

function storedSeen(key: string | null): Record<number, true> {
  if (!key) return {};
  try {
    const ids = JSON.parse(localStorage.getItem(key) ?? '[]') as unknown;
    return Array.isArray(ids) ? Object.fromEntries(ids.filter(Number.isInteger).map((id) => [id, true])) : {};
  } catch {
    return {};
  }
}

function storeSeen(): void {
  if (!seenKey) return;
  try {
    localStorage.setItem(seenKey, JSON.stringify(Object.keys(sosAlarms.seen).map(Number)));
  } catch {
    // Storage full or refused: the rule still holds for this tab.
  }
}

/** Reads which calls the signed-in person has already been shown (on sign-in, per person). */
export function loadSeenCalls(personId: number | undefined): void {
  seenKey = personId ? `pm.sos.seen.${personId}` : null;
  sosAlarms.seen = storedSeen(seenKey);
}

/**
 * The list the api answered replaces what is not closed: calls missing from it were closed
 * meanwhile (and are forgotten from `seen`: they never come back). When the dialog's call left,
 * the dialog moves on to the oldest unacknowledged call the person was not shown yet, or closes;
 * with `reopen` (a snapshot) a closed dialog opens only for such a call.
 */
export function mergeOpenCalls(list: readonly SosCall[], reopen = false): void {
  const next: Record<number, SosCall> = {};
  for (const c of list) next[c.id] = c;
  sosAlarms.calls = next;
  const seen = Object.keys(sosAlarms.seen).map(Number);
  if (seen.some((id) => !next[id])) {
    for (const id of seen) if (!next[id]) delete sosAlarms.seen[id];
    storeSeen();
  }
  const gone = sosAlarms.shown !== null && !next[sosAlarms.shown] && sosAlarms.closed?.id !== sosAlarms.shown;
  if (gone || (reopen && sosAlarms.shown === null)) showCall(firstUnseen());
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

/** The oldest unacknowledged call this person was never shown in the dialog. */
export function firstUnseen(): number | null {
  return orderedCalls(sosAlarms.calls).find((c) => c.state === 'open' && !sosAlarms.seen[c.id])?.id ?? null;
}

/** Shows a call in the dialog (null closes it); a call shown counts as seen by the person. */
export function showCall(id: number | null): void {
  sosAlarms.shown = id;
  if (sosAlarms.closed?.id !== id) sosAlarms.closed = null;
  if (id !== null && !sosAlarms.seen[id]) {
    sosAlarms.seen[id] = true;
    storeSeen();
  }
}
