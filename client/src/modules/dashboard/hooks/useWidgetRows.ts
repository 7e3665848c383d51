import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { LiveEvent } from '@pm/shared';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { liveState } from '../../live/states/liveState';

export interface WidgetRows<T> {
  /** null until the first answer. */
  rows: T[] | null;
  /** The list call of the widget's area answered with more than these rows (its total), when it says. */
  total: number | null;
  failed: boolean;
}

/**
 * A dashboard widget's latest rows: read once, then again whenever a live event the widget
 * cares about arrives (`reloadOn`) and after every new snapshot of the gateway (a reconnect
 * catches up on what happened meanwhile). No polling: the gateway's topics drive it. The rows
 * shown stay until the next answer replaces them; a late answer of an older request is dropped.
 */
export function useWidgetRows<T>(
  load: (signal: AbortSignal) => Promise<{ rows: T[]; total?: number }>,
  reloadOn: (e: LiveEvent) => boolean,
): WidgetRows<T> {
  const [state, setState] = useState<WidgetRows<T>>({ rows: null, total: null, failed: false });
  const [version, setVersion] = useState(0);
  const snapshots = useSnapshot(liveState).snapshots;
  const latest = useRef(load);
  latest.current = load;

  useLiveEvent((e) => {
    if (reloadOn(e)) setVersion((v) => v + 1);
  });

  useEffect(() => {
    const abort = new AbortController();
    latest
      .current(abort.signal)
      .then((r) => !abort.signal.aborted && setState({ rows: r.rows, total: r.total ?? null, failed: false }))
      .catch(() => !abort.signal.aborted && setState((s) => ({ ...s, failed: true })));
    return () => abort.abort();
  }, [version, snapshots]);

  return state;
}
