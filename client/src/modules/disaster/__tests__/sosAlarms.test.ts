import { beforeEach, describe, expect, it } from 'vitest';
import { normalizeUpstream, toastFor, type SosCall } from '@pm/shared';
import {
  loadSeenCalls,
  mergeCall,
  mergeOpenCalls,
  orderedCalls,
  showCall,
  shownCall,
  sosAlarms,
} from '../states/sosAlarms';

const call = (id: number, state: SosCall['state'], createdAt: string): SosCall => ({
  id,
  personId: 1,
  personName: 'Resident',
  phone: null,
  position: 'Lobby',
  createdAt,
  state,
  acknowledgedBy: null,
  acknowledgedAt: null,
  handledBy: null,
  handledAt: null,
  handledNote: null,
  houseType: 1,
  buildName: 'A',
  floorName: '1/F',
  unitName: '1A',
  carParkCode: null,
  shopCode: null,
});

describe('the SOS calls a console holds', () => {
  beforeEach(() => {
    localStorage.clear();
    loadSeenCalls(undefined);
    sosAlarms.calls = {};
    sosAlarms.shown = null;
    sosAlarms.closed = null;
  });

  it('when the open list comes after a reconnect, then it replaces what the tab held (calls closed meanwhile go) and the dialog shows the oldest unacknowledged call', () => {
    mergeOpenCalls([call(1, 'open', '2026-11-24T01:00:00Z')], true);
    expect(sosAlarms.shown).toBe(1);
    mergeOpenCalls([
      call(3, 'acknowledged', '2026-11-24T00:00:00Z'),
      call(4, 'open', '2026-11-24T03:00:00Z'),
      call(2, 'open', '2026-11-24T02:00:00Z'),
    ]);
    expect(Object.keys(sosAlarms.calls).map(Number).sort()).toEqual([2, 3, 4]);
    expect(orderedCalls(sosAlarms.calls).map((c) => c.id)).toEqual([2, 4, 3]);
    // The dialog showed call 1, closed meanwhile: it moves on to the oldest call nobody acknowledged.
    expect(shownCall(sosAlarms)?.id).toBe(2);
    // Dismissed, it stays dismissed on a live update and on a reconnect (the person saw it); the
    // reconnect shows the waiting call the person was never shown (4) instead.
    showCall(null);
    mergeOpenCalls(Object.values(sosAlarms.calls));
    expect(shownCall(sosAlarms)).toBeNull();
    mergeOpenCalls(Object.values(sosAlarms.calls), true);
    expect(shownCall(sosAlarms)?.id).toBe(4);
  });

  it('when staff dismissed an SOS dialog without acknowledging, then no snapshot, reconnect or page reload pops it again; a new call and a re-announcement do', () => {
    loadSeenCalls(42);
    const open = [call(7, 'open', '2026-11-24T01:00:00Z')];
    mergeOpenCalls(open, true);
    expect(sosAlarms.shown).toBe(7);
    showCall(null); // the person closes the dialog; nobody acknowledged
    for (let i = 0; i < 3; i++) mergeOpenCalls(open, true); // snapshots: reconnects, a takeover
    expect(shownCall(sosAlarms)).toBeNull();

    // A page reload: a fresh state, the same person.
    sosAlarms.calls = {};
    loadSeenCalls(42);
    mergeOpenCalls(open, true);
    expect(shownCall(sosAlarms)).toBeNull();
    // Another person on this browser was never shown it: it pops for them.
    loadSeenCalls(43);
    mergeOpenCalls(open, true);
    expect(shownCall(sosAlarms)?.id).toBe(7);
    showCall(null);
    loadSeenCalls(42);

    // A call raised while away pops on the next snapshot.
    const withNew = [...open, call(8, 'open', '2026-11-24T02:00:00Z')];
    mergeOpenCalls(withNew, true);
    expect(shownCall(sosAlarms)?.id).toBe(8);
    showCall(null);
    mergeOpenCalls(withNew, true);
    expect(shownCall(sosAlarms)).toBeNull();
    // A re-announcement (SosAlarmCenter on a live sosAgain) shows a seen call again on purpose.
    showCall(7);
    expect(shownCall(sosAlarms)?.id).toBe(7);
    // Closed calls are forgotten (they never come back), so the stored list stays short.
    mergeOpenCalls([call(8, 'open', '2026-11-24T02:00:00Z')]);
    expect(Object.keys(sosAlarms.seen)).toEqual(['8']);
    expect(JSON.parse(localStorage.getItem('pm.sos.seen.42') ?? '[]')).toEqual([8]);
  });

  it('when one call arrives twice (a replayed push and the list), then it is one call; closed it leaves, and stays shown as closed if it was shown', () => {
    mergeOpenCalls([call(5, 'open', '2026-11-24T01:00:00Z')], true);
    expect(sosAlarms.shown).toBe(5);
    mergeCall(call(5, 'acknowledged', '2026-11-24T01:00:00Z'));
    mergeCall(call(5, 'acknowledged', '2026-11-24T01:00:00Z'));
    expect(Object.keys(sosAlarms.calls)).toEqual(['5']);
    mergeCall(call(5, 'closed', '2026-11-24T01:00:00Z'));
    expect(sosAlarms.calls[5]).toBeUndefined();
    expect(shownCall(sosAlarms)?.state).toBe('closed');
    showCall(null);
    expect(shownCall(sosAlarms)).toBeNull();
  });

  it('when the api pushes an SOS, then a new call and a re-announced one ring with a toast, an acknowledgement does not', () => {
    const kind = (sos: string) => normalizeUpstream({ channelType: 10, messageType: 7, dataId: 5, sos });
    expect(kind('new')).toMatchObject({ topic: 'alarms', kind: 'sos' });
    expect(kind('again')).toMatchObject({ topic: 'alarms', kind: 'sosAgain' });
    expect(kind('acknowledged')).toMatchObject({ topic: 'alarms', kind: 'sosUpdate' });
    expect(toastFor(kind('again')!)).toMatchObject({ key: 'disaster.toasts.sosAgain' });
    expect(toastFor(kind('closed')!)).toBeNull();
    expect(toastFor(normalizeUpstream({ channelType: 10, dataId: 1, warn: 'reply' })!)).toBeNull();
    expect(toastFor(normalizeUpstream({ channelType: 10, dataId: 1, warn: 'released' })!)).toMatchObject({
      key: 'messages.toasts.disasterWarning',
    });
  });
});
