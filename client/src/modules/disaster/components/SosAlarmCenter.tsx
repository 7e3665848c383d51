import { useEffect, useRef } from 'react';
import { useSnapshot } from 'valtio';
import type { LiveEvent } from '@pm/shared';
import { fetchOpenSos } from '../../api';
import { usePermission } from '../../auth/hooks/usePermission';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { liveState } from '../../live/states/liveState';
import { session } from '../../auth/states/session';
import { loadSeenCalls, mergeOpenCalls, showCall, sosAlarms } from '../states/sosAlarms';
import { playSosSound } from '../utils/sosSound';
import { SosAlarmDialog } from './SosAlarmDialog';

/**
 * Keeps every SOS call that is not closed in front of the staff (issue 21), on every console
 * and wall screen of a person with disasterwarn:list:
 * - on every snapshot (first connect, the tab's reconnect, the gateway's upstream reconnect or
 *   takeover) it reads the open calls from the api, so calls missed while away are there, and
 *   opens the alarm dialog only for a call this person was never shown (states/sosAlarms.ts);
 * - on every live SOS event it reads them again; a new or re-announced call sounds the alarm and
 *   opens the alarm dialog (the toast comes from the alarms topic).
 */
export function SosAlarmCenter() {
  const allowed = usePermission('disasterwarn:list');
  const { snapshots } = useSnapshot(liveState);
  const { pId } = useSnapshot(session);
  const latest = useRef(0);

  const reload = (announce?: number, reopen = false) => {
    const n = ++latest.current;
    return fetchOpenSos()
      .then((list) => {
        if (n !== latest.current) return;
        mergeOpenCalls(list, reopen);
        const shown = sosAlarms.shown === null ? null : sosAlarms.calls[sosAlarms.shown];
        // A new call takes the dialog unless it shows another call nobody acknowledged yet.
        if (announce !== undefined && sosAlarms.calls[announce]?.state === 'open' && shown?.state !== 'open')
          showCall(announce);
      })
      .catch(() => undefined);
  };

  useEffect(() => loadSeenCalls(pId), [pId]);

  useEffect(() => {
    if (allowed && snapshots > 0) void reload(undefined, true);
  }, [allowed, snapshots]);

  useLiveEvent((e: LiveEvent) => {
    if (!allowed || e.topic !== 'alarms' || !e.kind.startsWith('sos')) return;
    const announced = e.kind === 'sos' || e.kind === 'sosAgain';
    if (announced) playSosSound();
    void reload(announced ? e.dataId : undefined);
  });

  return allowed ? <SosAlarmDialog /> : null;
}
