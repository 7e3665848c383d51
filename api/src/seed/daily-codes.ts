/**
 * Codes of seeded complaints and work orders in the one format the api gives live ones
 * (work-orders.repository `nextCode`): prefix + yyyyMMdd of the report in the estate's time zone + a 4-digit daily
 * sequence, e.g. C202611230001. One instance for the whole seed: codes are unique across estates.
 */
export class DailyCodes {
  private readonly last = new Map<string, number>();

  /** Codes for rows in the order given, numbered within each day by report time. */
  assign(prefix: 'C' | 'E', reportTimes: Date[], timeZone: string): string[] {
    const dayOf = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    const codes: string[] = new Array(reportTimes.length);
    const order = reportTimes.map((time, i) => ({ time, i })).sort((a, b) => a.time.getTime() - b.time.getTime());
    for (const { time, i } of order) {
      const day = `${prefix}${dayOf.format(time).replace(/-/g, '')}`;
      const n = (this.last.get(day) ?? 0) + 1;
      this.last.set(day, n);
      codes[i] = `${day}${String(n).padStart(4, '0')}`;
    }
    return codes;
  }
}
