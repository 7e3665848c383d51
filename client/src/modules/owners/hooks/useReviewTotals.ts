import { useCallback, useEffect, useState } from 'react';
import { fetchReviewTotals, type ReviewTotals } from '../../api';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';

/**
 * The owner-review tabs' counts (pending, certified, refused), null until loaded. They are read
 * again on every `residents` event (a resident asked to join or left, someone decided) and after
 * the staff's own change (`reload`): the api reads them from counters, so this is cheap.
 */
export function useReviewTotals(): { totals: ReviewTotals | null; reload: () => void } {
  const [totals, setTotals] = useState<ReviewTotals | null>(null);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useEffect(() => {
    const controller = new AbortController();
    fetchReviewTotals(controller.signal).then(setTotals, () => {
      // Aborted, or the call failed (already reported): keep the counts shown.
    });
    return () => controller.abort();
  }, [version]);
  useLiveEvent((e) => {
    if (e.topic === 'residents') reload();
  });
  return { totals, reload };
}
