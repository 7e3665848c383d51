import { useEffect, useRef } from 'react';
import type { LiveEvent } from '@pm/shared';
import { onLiveEvent } from '../utils/liveEvents';

/** Calls `handler` with every live event while the component is shown (the latest handler). */
export function useLiveEvent(handler: (e: LiveEvent) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => onLiveEvent((e) => latest.current(e)), []);
}
