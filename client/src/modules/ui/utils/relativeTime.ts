import dayjs from 'dayjs';

export type RelativeTime =
  | { key: 'common.justNow' }
  | { key: 'common.minutesAgo'; count: number }
  | { key: 'common.yesterday' }
  | { key: 'common.dayBeforeYesterday' }
  | { date: string };

/**
 * SPEC §9: "just now" within a minute, "N minutes ago" within the hour, then the time today,
 * "yesterday", "the day before yesterday", then the date (yyyy-MM-dd HH:mm).
 */
export function relativeTime(value: string | number | Date, now: Date = new Date()): RelativeTime {
  const d = dayjs(value);
  if (!d.isValid()) return { date: String(value) };
  const minutes = Math.floor((now.getTime() - d.valueOf()) / 60_000);
  if (minutes < 1 && minutes > -1) return { key: 'common.justNow' };
  if (minutes >= 1 && minutes < 60) return { key: 'common.minutesAgo', count: minutes };
  const days = dayjs(now).startOf('day').diff(d.startOf('day'), 'day');
  if (days === 0) return { date: d.format('HH:mm') };
  if (days === 1) return { key: 'common.yesterday' };
  if (days === 2) return { key: 'common.dayBeforeYesterday' };
  return { date: d.format('YYYY-MM-DD HH:mm') };
}
