import { afterEach, describe, expect, it } from 'vitest';
import { quickRange } from '../utils/dateRange';
import { displayTimeZone, formatTime, setDisplayTimeZone } from '../utils/formatTime';
import { relativeTime } from '../utils/relativeTime';

describe("the estate's time zone as the console's", () => {
  afterEach(() => setDisplayTimeZone(undefined));

  it("when the session names the estate's zone, then every time, day and quick range uses it, whatever the browser's", () => {
    setDisplayTimeZone('Asia/Hong_Kong');
    expect(displayTimeZone()).toBe('Asia/Hong_Kong');
    // 16:30 UTC is half past midnight the next day in Hong Kong.
    expect(formatTime('2026-11-06T16:30:00Z')).toBe('2026-11-07 00:30');
    expect(quickRange('today', new Date('2026-11-06T16:30:00Z'))).toEqual({ start: '2026-11-07', end: '2026-11-07' });
    expect(relativeTime('2026-11-06T15:30:00Z', new Date('2026-11-06T16:30:00Z'))).toEqual({ key: 'common.yesterday' });
  });

  it("when the zone is unknown or cleared, then the browser's is used", () => {
    setDisplayTimeZone('Mars/Olympus');
    expect(displayTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    setDisplayTimeZone('Asia/Hong_Kong');
    setDisplayTimeZone(undefined);
    expect(displayTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});
