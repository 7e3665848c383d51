/** The browser's own time zone. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

let displayZone: string | undefined;

/**
 * The zone every time of the console is shown and every day is counted in: the estate's (set
 * from the session when the person signs in), the browser's until then. A staff member in
 * another zone sees the estate's times, as the api counts its days.
 */
export const displayTimeZone = (): string => displayZone ?? browserTimeZone();

/** Sets the estate's zone (undefined: back to the browser's). An unknown zone name is ignored. */
export function setDisplayTimeZone(timeZone: string | undefined): void {
  if (timeZone && !isTimeZone(timeZone)) return;
  displayZone = timeZone;
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export interface FormatTimeOptions {
  /** `yyyy-MM-dd` only. */
  dateOnly?: boolean;
  /** IANA zone the time is shown in, e.g. 'Asia/Hong_Kong'; the estate's when left out. */
  timeZone?: string;
}

/**
 * The console's one time format (SPEC §9): `yyyy-MM-dd HH:mm`, or `yyyy-MM-dd` with `dateOnly`,
 * the same in every language, in the given time zone (the estate's by default). '' for nothing
 * or an unreadable value.
 */
export function formatTime(
  value: string | number | Date | null | undefined,
  { dateOnly = false, timeZone = displayTimeZone() }: FormatTimeOptions = {},
): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const p: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(date)) p[part.type] = part.value;
  const day = `${p.year}-${p.month}-${p.day}`;
  return dateOnly ? day : `${day} ${p.hour}:${p.minute}`;
}
