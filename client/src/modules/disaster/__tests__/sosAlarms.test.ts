import { beforeEach, describe, expect, it } from 'vitest';
import { normalizeUpstream, toastFor, type SosCall } from '@pm/shared';
import { mergeCall, mergeOpenCalls, orderedCalls, showCall, shownCall, sosAlarms } from '../states/sosAlarms';

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
    // Dismissed, it stays dismissed on a live update; a reconnect shows the waiting call again.
    showCall(null);
    mergeOpenCalls(Object.values(sosAlarms.calls));
    expect(shownCall(sosAlarms)).toBeNull();
    mergeOpenCalls(Object.values(sosAlarms.calls), true);
    expect(shownCall(sosAlarms)?.id).toBe(2);
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
