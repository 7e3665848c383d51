import { beforeEach, describe, expect, it } from 'vitest';
import { toastFor } from '@pm/shared';
import { catchUpDelay, missedWarnings, readUntilDone, resetWarningCatchUp, warningHeard } from '../states/alarmCatchUp';

const row = (id: number, revoked = false) => ({ id, revoked });

describe('a console catching up on the alarms it missed while away (issue 35)', () => {
  beforeEach(() => resetWarningCatchUp());

  it('when a snapshot read finds warnings released while the tab was away, then each one not heard live gets the live toast, oldest first; revoked ones and the first read do not', () => {
    // The console opens: what was released before is in the warning list, not a toast.
    expect(missedWarnings([row(7), row(6)])).toEqual([]);
    // Heard live while connected.
    warningHeard(8);
    // Away: 9, 10 and 11 released, 10 revoked meanwhile; the reconnect's read.
    const missed = missedWarnings([row(11), row(10, true), row(9), row(8), row(7)]);
    expect(missed.map((e) => e.dataId)).toEqual([9, 11]);
    for (const e of missed) {
      expect(e).toMatchObject({ topic: 'alarms', kind: 'disasterWarning' });
      expect(toastFor(e)).toMatchObject({ key: 'messages.toasts.disasterWarning' });
    }
    // The next snapshot's read announces nothing twice.
    expect(missedWarnings([row(11), row(10, true), row(9)])).toEqual([]);
  });

  it('when the catch-up read fails (the gateway is back, its api not yet), then it is tried again after 1, 2, 4, 8, 8 s until it succeeds, without waiting for another snapshot', async () => {
    const pauses: number[] = [];
    let calls = 0;
    const read = async () => {
      calls += 1;
      if (calls < 6) throw new Error('502');
      return ['call 5'];
    };
    const got = await readUntilDone(
      read,
      () => true,
      async (ms) => void pauses.push(ms),
    );
    expect(got).toEqual(['call 5']);
    expect(pauses).toEqual([1000, 2000, 4000, 8000, 8000]);
    expect(catchUpDelay(10)).toBe(8000);
  });

  it('when a newer snapshot starts its own catch-up, then the older one stops retrying', async () => {
    let current = true;
    let calls = 0;
    const got = await readUntilDone(
      async () => {
        calls += 1;
        throw new Error('502');
      },
      () => current,
      async () => {
        current = calls < 3;
      },
    );
    expect(got).toBeUndefined();
    expect(calls).toBe(3);
  });
});
