import { displayTimeZone, formatTime } from './formatTime';

export type RelativeTime =
  | { key: 'common.justNow' }
  | { key: 'common.minutesAgo'; count: number }
  | { key: 'common.yesterday' }
  | { key: 'common.dayBeforeYesterday' }
  | { date: string };

/** Days since 1970 of a `yyyy-MM-dd` calendar date. */
const dayNumber = (day: string) => Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10)) / 86_400_000;

/**
 * SPEC §9: "just now" within a minute, "N minutes ago" within the hour, then the time today,
 * "yesterday", "the day before yesterday", then the date (yyyy-MM-dd HH:mm). Calendar days are
 * those of the time zone (the estate's unless given).
 */
export function relativeTime(
  value: string | number | Date,
  now: Date = new Date(),
  timeZone: string = displayTimeZone(),
): RelativeTime {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return { date: String(value) };
  const minutes = Math.floor((now.getTime() - d.getTime()) / 60_000);
  if (minutes < 1 && minutes > -1) return { key: 'common.justNow' };
  if (minutes >= 1 && minutes < 60) return { key: 'common.minutesAgo', count: minutes };
  const full = formatTime(d, { timeZone });
  const days = dayNumber(formatTime(now, { dateOnly: true, timeZone })) - dayNumber(full);
  if (days === 0) return { date: full.slice(11) };
  if (days === 1) return { key: 'common.yesterday' };
  if (days === 2) return { key: 'common.dayBeforeYesterday' };
  return { date: full };
}
