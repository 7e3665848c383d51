import { useCallback, useState } from 'react';

/** The rows picked for a batch download: ids kept across pages until cleared. */
export function useSelection() {
  const [ids, setIds] = useState<ReadonlySet<number>>(new Set());
  const toggle = useCallback((id: number, on: boolean) => {
    setIds((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const toggleAll = useCallback((pageIds: number[], on: boolean) => {
    setIds((prev) => {
      const next = new Set(prev);
      for (const id of pageIds) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  }, []);
  const clear = useCallback(() => setIds(new Set()), []);
  return { ids, toggle, toggleAll, clear };
}
export type Selection = ReturnType<typeof useSelection>;
