import dayjs from 'dayjs';

/** Dates as yyyy-MM-dd strings ('' = not chosen). */
export interface DateRange {
  start: string;
  end: string;
}

export type QuickRange = 'today' | 'thisWeek' | 'thisMonth';

const FORMAT = 'YYYY-MM-DD';

/** Quick choices of SPEC §2; weeks start on Monday (SPEC §9). */
export function quickRange(kind: QuickRange, now: Date = new Date()): DateRange {
  const today = dayjs(now).startOf('day');
  if (kind === 'today') return { start: today.format(FORMAT), end: today.format(FORMAT) };
  if (kind === 'thisWeek') {
    const sinceMonday = (today.day() + 6) % 7; // Sunday is 0 in dayjs
    const monday = today.subtract(sinceMonday, 'day');
    return { start: monday.format(FORMAT), end: monday.add(6, 'day').format(FORMAT) };
  }
  return { start: today.startOf('month').format(FORMAT), end: today.endOf('month').format(FORMAT) };
}

/**
 * SPEC §5 date range rules. Returns translation keys by field ('' when fine): end required if a
 * start is given, start required if an end is given, end not before start.
 */
export function validateDateRange(r: DateRange): { start: string; end: string } {
  const out = { start: '', end: '' };
  if (r.start && !r.end) out.end = 'validation.endRequired';
  if (r.end && !r.start) out.start = 'validation.startRequired';
  if (r.start && r.end && dayjs(r.end).isBefore(dayjs(r.start))) out.end = 'validation.endBeforeStart';
  return out;
}

export function isDateRangeValid(r: DateRange): boolean {
  const v = validateDateRange(r);
  return !v.start && !v.end;
}
