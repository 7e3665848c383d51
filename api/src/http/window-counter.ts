/**
 * Counts events per key (e.g. per client address) in fixed windows, in this process's memory:
 * a guard against one client making the api do costly work, not a limit shared between api
 * instances (the sign-in limits, which must hold across instances, live in the database). The
 * counts are dropped at each new window, so memory stays bounded by one window's keys.
 */
export class WindowCounter {
  private windowStart = 0;
  private counts = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one event of `key`; answers 0 while within the limit, else the seconds until the next window. */
  hit(key: string): number {
    const now = Date.now();
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now;
      this.counts.clear();
    }
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    return n > this.limit ? Math.max(1, Math.ceil((this.windowStart + this.windowMs - now) / 1000)) : 0;
  }
}
