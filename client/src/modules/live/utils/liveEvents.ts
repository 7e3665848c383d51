import type { LiveEvent } from '@pm/shared';

type Listener = (e: LiveEvent) => void;

const listeners = new Set<Listener>();

/**
 * Screens that follow a record live (an open detail dialog) listen here; the socket hands every
 * event over after the counters took it. Returns the function that stops listening.
 */
export function onLiveEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function emitLiveEvent(e: LiveEvent): void {
  for (const listener of [...listeners]) listener(e);
}
