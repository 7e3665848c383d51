import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { fetchEstateInfo, type EstateInfo } from '../../api';
import { session } from '../../auth/states/session';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { liveState } from '../../live/states/liveState';
import { applyEstateInfo, clearEstateInfo, estateInfo } from '../states/estateInfo';

/**
 * Keeps the estate's settings of this tab current: read when the tab is (re)connected (a change
 * made while it was offline is caught up), then taken from each `estate` live event.
 */
export function EstateSync() {
  const { token } = useSnapshot(session);
  const { synced } = useSnapshot(liveState);
  useEffect(() => {
    if (!token) {
      clearEstateInfo();
      return;
    }
    // Read at once, then again each time the tab is back in sync after a loss.
    if (!synced && estateInfo.info) return;
    const abort = new AbortController();
    fetchEstateInfo(abort.signal).then(applyEstateInfo, () => undefined);
    return () => abort.abort();
  }, [token, synced]);
  useLiveEvent((e) => {
    if (e.topic === 'estate' && e.payload.housingEstateId !== undefined) applyEstateInfo(e.payload as EstateInfo);
  });
  return null;
}
