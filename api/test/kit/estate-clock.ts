/** The demo estate's time zone: check-in days and shifts are counted in it. */
export const DEMO_ZONE = 'Asia/Hong_Kong';

/** The demo estate's today (yyyy-MM-dd), and its clock now plus some hours as "HH:mm". */
export function localNow(plusHours = 0): { day: string; clock: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: DEMO_ZONE,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(new Date(Date.now() + plusHours * 3_600_000))
      .map((p) => [p.type, p.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, clock: `${parts.hour}:${parts.minute}` };
}

/** A calendar day (yyyy-MM-dd) moved by n days. */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
