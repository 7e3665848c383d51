import { displayTimeZone, formatTime } from './formatTime';

/** Dates as yyyy-MM-dd strings ('' = not chosen). */
export interface DateRange {
  start: string;
  end: string;
}

export type QuickRange = 'today' | 'thisWeek' | 'thisMonth';

/** yyyy-MM-dd → a Date at UTC midnight (calendar arithmetic without time-zone surprises). */
function utcDay(day: string): Date {
  return new Date(Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10)));
}
const toDay = (d: Date) => d.toISOString().slice(0, 10);

/** True for a real calendar date written yyyy-MM-dd (2026-02-30 is not one). */
export function isDay(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && toDay(utcDay(value)) === value;
}

/**
 * Quick choices of SPEC §2 as calendar days of the time zone (the estate's unless given);
 * weeks start on Monday (SPEC §9).
 */
export function quickRange(kind: QuickRange, now: Date = new Date(), timeZone: string = displayTimeZone()): DateRange {
  const today = formatTime(now, { dateOnly: true, timeZone });
  if (kind === 'today') return { start: today, end: today };
  const d = utcDay(today);
  if (kind === 'thisWeek') {
    const sinceMonday = (d.getUTCDay() + 6) % 7; // Sunday is 0
    const monday = new Date(d.getTime() - sinceMonday * 86_400_000);
    return { start: toDay(monday), end: toDay(new Date(monday.getTime() + 6 * 86_400_000)) };
  }
  const first = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0));
  return { start: toDay(first), end: toDay(last) };
}

/**
 * SPEC §5 date range rules. Returns translation keys by field ('' when fine): a date is
 * written yyyy-MM-dd, end required if a start is given, start required if an end is given,
 * end not before start.
 */
export function validateDateRange(r: DateRange): { start: string; end: string } {
  const out = { start: '', end: '' };
  if (r.start && !isDay(r.start)) out.start = 'validation.dateFormat';
  if (r.end && !isDay(r.end)) out.end = 'validation.dateFormat';
  if (out.start || out.end) return out;
  if (r.start && !r.end) out.end = 'validation.endRequired';
  if (r.end && !r.start) out.start = 'validation.startRequired';
  if (r.start && r.end && r.end < r.start) out.end = 'validation.endBeforeStart';
  return out;
}

export function isDateRangeValid(r: DateRange): boolean {
  const v = validateDateRange(r);
  return !v.start && !v.end;
}
