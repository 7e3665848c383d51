import { normalizeUpstream, type LiveEvent } from '@pm/shared';

/**
 * Catching up on alarms a console missed while it was away (issue 35, the chaos run): the SOS
 * calls and disaster warnings pushed while the tab was disconnected, or while its gateway could
 * not reach the api, never arrive live. On every snapshot (which follows each reconnect and each
 * upstream reconnect or takeover) the console reads the open SOS calls and the latest warnings;
 * a read that fails — the gateway is back but its api is not yet — is tried again after a
 * growing pause until it succeeds, instead of waiting for the next snapshot, which on a steady
 * connection may be minutes away.
 */

/** The newest warning this tab knows of (heard live or read); null until the first read. */
let newestWarning: number | null = null;

/** Forgets what this tab knew (sign-out, tests). */
export function resetWarningCatchUp(): void {
  newestWarning = null;
}

/** A warning heard live: a catch-up read does not announce it again. */
export function warningHeard(id: number): void {
  newestWarning = Math.max(newestWarning ?? 0, id);
}

/**
 * The warnings of a catch-up read (the api's first page, newest first) released since the
 * newest one this tab knew of, oldest first, as the live events they stand for (their toast is
 * the live one's). Revoked ones are left out. The first read only learns where the tab stands:
 * warnings released before the console was opened are in the warning list, not toasts.
 */
export function missedWarnings(list: readonly { id: number; revoked: boolean }[]): LiveEvent[] {
  const known = newestWarning;
  for (const w of list) warningHeard(w.id);
  if (known === null) return [];
  return list
    .filter((w) => w.id > known && !w.revoked)
    .sort((a, b) => a.id - b.id)
    .map((w) => normalizeUpstream({ channelType: 10, dataId: w.id, warn: 'released' }))
    .filter((e): e is LiveEvent => e !== null);
}

/** The pause after failed read `n` (0, 1, …). */
export function catchUpDelay(n: number): number {
  return Math.min(8000, 1000 * 2 ** n);
}

/**
 * Runs `read` until it succeeds and answers its result, pausing `catchUpDelay(n)` (1 s doubling to
 * 8 s: an alarm must not wait long) after each failure; gives up (undefined) once `current()` says a newer
 * catch-up took over or the screen went away.
 */
export async function readUntilDone<T>(
  read: () => Promise<T>,
  current: () => boolean,
  pause: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<T | undefined> {
  for (let n = 0; current(); n++) {
    try {
      return await read();
    } catch {
      if (!current()) return undefined;
      await pause(catchUpDelay(n));
    }
  }
  return undefined;
}
