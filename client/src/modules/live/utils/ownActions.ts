/**
 * Changes this tab made itself. The gateway echoes them to every tab of the person as live
 * events; the tab that made the change already said so, so its echo gets no second toast.
 */
const recent = new Map<string, number>();
/** How long after the change its echo is expected. */
const ECHO_MS = 15_000;

/** The key of a change: its topic and what identifies it, e.g. `workorders:complaint:12:2`. */
export const ownActionKey = (...parts: (string | number)[]): string => parts.join(':');

export function rememberOwnAction(key: string, now: number = Date.now()): void {
  for (const [k, at] of recent) if (now - at > ECHO_MS) recent.delete(k);
  recent.set(key, now);
}

/** True once for the echo of a change this tab made (then forgotten). */
export function takeOwnEcho(key: string, now: number = Date.now()): boolean {
  const at = recent.get(key);
  if (at === undefined) return false;
  recent.delete(key);
  return now - at <= ECHO_MS;
}
