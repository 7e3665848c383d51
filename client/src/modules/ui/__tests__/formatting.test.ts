import { describe, expect, it } from 'vitest';
import { relativeTime } from '../utils/relativeTime';
import { formatVoiceDuration, parseVoiceSource } from '../utils/voiceSource';

describe('relative time and voice durations', () => {
  const now = new Date(2026, 10, 23, 12, 0, 0);
  it('when times are compared to now, then they read just now, N minutes ago, yesterday, the day before, then a date', () => {
    expect(relativeTime(new Date(2026, 10, 23, 11, 59, 30), now)).toEqual({ key: 'common.justNow' });
    expect(relativeTime(new Date(2026, 10, 23, 11, 55), now)).toEqual({ key: 'common.minutesAgo', count: 5 });
    expect(relativeTime(new Date(2026, 10, 22, 9, 0), now)).toEqual({ key: 'common.yesterday' });
    expect(relativeTime(new Date(2026, 10, 21, 9, 0), now)).toEqual({ key: 'common.dayBeforeYesterday' });
    expect(relativeTime(new Date(2026, 10, 1, 9, 5), now)).toEqual({ date: '2026-11-01 09:05' });
  });
  it('when a voice source is "path?seconds", then the duration reads in seconds or m:ss above 60', () => {
    expect(parseVoiceSource('/v/a.mp3?12')).toEqual({ url: '/v/a.mp3', seconds: 12 });
    expect(parseVoiceSource('/v/a.mp3')).toEqual({ url: '/v/a.mp3', seconds: undefined });
    expect(formatVoiceDuration(60)).toEqual({ count: 60 });
    expect(formatVoiceDuration(75)).toEqual({ text: '1:15' });
  });
});
