import { describe, expect, it } from 'vitest';
import en from '../../../../../locales/en.json';
import zhCN from '../../../../../locales/zh-CN.json';
import zhTW from '../../../../../locales/zh-TW.json';
import { EventType, WorkStatus, enumValues } from '@pm/shared';
import { isDay, quickRange, validateDateRange } from '../utils/dateRange';
import { LABELLED_ENUMS, enumLabelKey, enumOptions } from '../utils/enumLabels';
import { formatTime } from '../utils/formatTime';
import { relativeTime } from '../utils/relativeTime';
import { unitDisplay } from '../utils/unitDisplay';

const lookup = (tree: unknown, key: string): unknown =>
  key.split('.').reduce<unknown>((node, k) => (node as Record<string, unknown> | undefined)?.[k], tree);

describe('one formatter per concept', () => {
  it('when a time is formatted, then it reads yyyy-MM-dd HH:mm in the given zone, the browser’s by default', () => {
    const t = '2026-11-06T16:30:00Z';
    expect(formatTime(t, { timeZone: 'Asia/Hong_Kong' })).toBe('2026-11-07 00:30');
    expect(formatTime(t, { timeZone: 'UTC' })).toBe('2026-11-06 16:30');
    expect(formatTime(t, { timeZone: 'Asia/Hong_Kong', dateOnly: true })).toBe('2026-11-07');
    expect(formatTime(new Date(2026, 0, 2, 3, 4))).toBe('2026-01-02 03:04');
    expect(formatTime('2026-11-06T00:05:00Z', { timeZone: 'UTC' })).toBe('2026-11-06 00:05');
    expect(formatTime(null)).toBe('');
    expect(formatTime('not a time')).toBe('');
  });

  it('when "yesterday" is decided, then the calendar days are those of the zone', () => {
    const now = new Date('2026-11-23T01:00:00Z'); // 09:00 on the 23rd in Hong Kong
    expect(relativeTime('2026-11-22T17:30:00Z', now, 'Asia/Hong_Kong')).toEqual({ date: '01:30' });
    expect(relativeTime('2026-11-22T17:30:00Z', now, 'UTC')).toEqual({ key: 'common.yesterday' });
    expect(relativeTime('2026-11-01T01:05:00Z', now, 'UTC')).toEqual({ date: '2026-11-01 01:05' });
  });

  it('when quick ranges are taken in a zone, then "today" and Monday-first weeks are that zone’s', () => {
    const sundayEveningUtc = new Date('2026-11-22T17:00:00Z'); // already Monday the 23rd in Hong Kong
    expect(quickRange('today', sundayEveningUtc, 'UTC')).toEqual({ start: '2026-11-22', end: '2026-11-22' });
    expect(quickRange('thisWeek', sundayEveningUtc, 'UTC')).toEqual({ start: '2026-11-16', end: '2026-11-22' });
    expect(quickRange('thisWeek', sundayEveningUtc, 'Asia/Hong_Kong')).toEqual({
      start: '2026-11-23',
      end: '2026-11-29',
    });
    expect(quickRange('thisMonth', new Date('2028-02-10T12:00:00Z'), 'UTC')).toEqual({
      start: '2028-02-01',
      end: '2028-02-29',
    });
  });

  it('when a date is typed, then only a real yyyy-MM-dd day passes', () => {
    expect(isDay('2026-02-28')).toBe(true);
    expect(isDay('2026-02-30')).toBe(false);
    expect(isDay('2026/02/28')).toBe(false);
    expect(validateDateRange({ start: '2026-1-2', end: '2026-01-03' })).toEqual({
      start: 'validation.dateFormat',
      end: '',
    });
  });

  it('when a house is named, then it is building / floor / unit, else the car park or shop code, nested or flat', () => {
    expect(unitDisplay({ buildName: 'Block A', floorName: '3/F', unitName: '3B', carParkCode: null })).toBe(
      'Block A / 3/F / 3B',
    );
    expect(unitDisplay({ unitName: null, carParkCode: 'P-12', shopCode: null })).toBe('P-12');
    expect(unitDisplay({ unit: null, carpark: null, shop: { shopCode: 'S-3' } })).toBe('S-3');
    expect(unitDisplay({ unit: { buildName: 'Tower 1', floorName: '1/F', name: '1A' } })).toBe('Tower 1 / 1/F / 1A');
    expect(unitDisplay({})).toBe('');
  });

  it('when an enumeration is labelled, then every value of it has a text in all three languages', () => {
    for (const e of LABELLED_ENUMS)
      for (const v of enumValues(e))
        for (const [lang, texts] of Object.entries({ en, 'zh-CN': zhCN, 'zh-TW': zhTW }))
          expect(typeof lookup(texts, enumLabelKey(e, v)), `${lang} ${enumLabelKey(e, v)}`).toBe('string');
    const t = ((k: string) => `<${k}>`) as unknown as Parameters<typeof enumOptions>[0];
    expect(enumOptions(t, EventType).map((o) => o.value)).toEqual([1, 2, 3, 4, 5]);
    expect(enumOptions(t, WorkStatus)[0]).toEqual({ key: 1, value: 1, text: '<workOrders.status.s1>' });
  });
});
