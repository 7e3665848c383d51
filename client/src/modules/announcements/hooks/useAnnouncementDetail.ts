import { useEffect, useRef, useState } from 'react';
import { fetchAnnouncement, type AnnouncementDetail } from '../../api';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';

/**
 * One announcement, followed live: every event about it (read, vote, comment, revoke) loads it
 * again and bumps `changes`, which its read lists and comments reload on. `onMissing` runs when
 * it cannot be loaded (another estate's id, a deleted one).
 */
export function useAnnouncementDetail(id: number | null, onMissing: () => void) {
  const [detail, setDetail] = useState<AnnouncementDetail | null>(null);
  const [changes, setChanges] = useState(0);
  const missingRef = useRef(onMissing);
  missingRef.current = onMissing;
  useEffect(() => {
    if (id === null) setDetail(null);
  }, [id]);
  useEffect(() => {
    if (id === null) return;
    const abort = new AbortController();
    fetchAnnouncement(id, abort.signal).then(setDetail, () => {
      if (!abort.signal.aborted) missingRef.current();
    });
    return () => abort.abort();
  }, [id, changes]);
  useLiveEvent((e) => {
    if (e.topic === 'announcements' && id !== null && e.dataId === id) setChanges((n) => n + 1);
  });
  return {
    /** The announcement of `id` once loaded (never the previous one's). */
    detail: detail && detail.id === id ? detail : null,
    changes,
    reload: () => setChanges((n) => n + 1),
  };
}
