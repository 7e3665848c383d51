import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import type { LiveEvent } from '@pm/shared';
import { fetchOpenSos, fetchWarnings } from '../../api';
import { usePermission } from '../../auth/hooks/usePermission';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { liveState } from '../../live/states/liveState';
import { session } from '../../auth/states/session';
import { notifyLiveEvent } from '../../messages/utils/notifyLiveEvent';
import { missedWarnings, readUntilDone, resetWarningCatchUp, warningHeard } from '../states/alarmCatchUp';
import { loadSeenCalls, mergeOpenCalls, showCall, sosAlarms } from '../states/sosAlarms';
import { playSosSound } from '../utils/sosSound';
import { SosAlarmDialog } from './SosAlarmDialog';

/**
 * Keeps every SOS call that is not closed in front of the staff (issue 21), on every console
 * and wall screen of a person with disasterwarn:list:
 * - on every (re)connect and every snapshot (first connect, the tab's reconnect, the gateway's
 *   upstream reconnect or takeover) it reads the open calls from the api, so calls missed while away are there, and
 *   opens the alarm dialog only for a call this person was never shown (states/sosAlarms.ts);
 * - on every live SOS event it reads them again; a new or re-announced call sounds the alarm and
 *   opens the alarm dialog (the toast comes from the alarms topic);
 * - on every snapshot it also reads the latest disaster warnings and shows the toast of each one
 *   released while the tab was away (states/alarmCatchUp.ts);
 * - a catch-up read that fails (the gateway is back, its api not yet) is tried again after 1, 2,
 *   4, 8 s … until it succeeds, not only on the next snapshot (issue 35: alarms reached a tab
 *   minutes late in the chaos run).
 */
export function SosAlarmCenter() {
  const allowed = usePermission('disasterwarn:list');
  const { snapshots, connects } = useSnapshot(liveState);
  const { pId } = useSnapshot(session);
  const latest = useRef(0);

  const navigateNow = useNavigate();
  const navigate = useRef(navigateNow);
  navigate.current = navigateNow;
  const reload = (announce?: number, reopen = false) => {
    const n = ++latest.current;
    return readUntilDone(fetchOpenSos, () => n === latest.current)
      .then((list) => {
        if (n !== latest.current || !list) return;
        mergeOpenCalls(list, reopen);
        const shown = sosAlarms.shown === null ? null : sosAlarms.calls[sosAlarms.shown];
        // A new call takes the dialog unless it shows another call nobody acknowledged yet.
        if (announce !== undefined && sosAlarms.calls[announce]?.state === 'open' && shown?.state !== 'open')
          showCall(announce);
      })
      .catch(() => undefined);
  };

  useEffect(() => {
    loadSeenCalls(pId);
    resetWarningCatchUp();
  }, [pId]);

  const warningsRead = useRef(0);
  useEffect(() => {
    // Every (re)connect at once (the snapshot may wait for the gateway's upstream) and every snapshot.
    if (!allowed || (snapshots === 0 && connects === 0)) return;
    void reload(undefined, true);
    const n = ++warningsRead.current;
    void readUntilDone(
      () => fetchWarnings(1, 20, undefined),
      () => n === warningsRead.current,
    ).then((page) => {
      if (!page || n !== warningsRead.current) return;
      for (const e of missedWarnings(page.list)) notifyLiveEvent(e, (path) => navigate.current(path));
    });
  }, [allowed, snapshots, connects]);
  // Leaving the console stops the retries.
  useEffect(
    () => () => {
      latest.current += 1;
      warningsRead.current += 1;
    },
    [],
  );

  useLiveEvent((e: LiveEvent) => {
    if (e.topic === 'alarms' && e.kind === 'disasterWarning' && e.dataId !== undefined) warningHeard(e.dataId);
    if (!allowed || e.topic !== 'alarms' || !e.kind.startsWith('sos')) return;
    const announced = e.kind === 'sos' || e.kind === 'sosAgain';
    if (announced) playSosSound();
    void reload(announced ? e.dataId : undefined);
  });

  return allowed ? <SosAlarmDialog /> : null;
}
