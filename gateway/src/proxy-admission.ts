import type { ServerResponse } from 'node:http';

/** How many proxied calls may run and wait at once (README, "Configuration"). */
export interface ProxyLimits {
  /** Calls in flight to the api at once, all clients together (the api connection pool's size). */
  inFlight: number;
  /** Calls in flight at once from one client address. */
  inFlightPerClient: number;
  /** Calls waiting for a free slot, all clients together. */
  queue: number;
  /** Calls waiting for a free slot from one client address. */
  queuePerClient: number;
  /** How long a call may wait for a slot before it is refused (ms). */
  queueTimeoutMs: number;
}

export const DEFAULT_PROXY_LIMITS: ProxyLimits = {
  inFlight: 256,
  inFlightPerClient: 64,
  queue: 2048,
  queuePerClient: 256,
  queueTimeoutMs: 10_000,
};

interface Call {
  client: string;
  res: ServerResponse;
  start(): void;
  refuse(): void;
  timer?: NodeJS.Timeout;
}

/**
 * Admission control for proxied calls: a call runs at once when both its client's and the
 * overall in-flight limits allow, otherwise it waits in its client's queue, and is refused
 * (`refuse`, a 503 envelope) when the queues are full or it waited too long. Waiting clients take
 * turns (round robin), so one client's flood delays another client by one call at most.
 *
 * Home-made on purpose: the libraries we looked at (p-limit, p-queue, bottleneck) limit
 * concurrency per key OR overall, not both with a fair queue, and this is 80 lines.
 */
export class ProxyAdmission {
  private running = 0;
  private waitingCount = 0;
  private readonly runningBy = new Map<string, number>();
  /** Waiting calls per client; the Map's order is the order in which clients take turns. */
  private readonly waiting = new Map<string, Call[]>();

  constructor(private readonly limits: ProxyLimits) {}

  /** Calls running now and waiting now (for /metrics). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waitingCount };
  }

  /**
   * Runs `start` when a slot is free for `client`. The slot is held until `res` closes (answered
   * or the caller went away); a waiting call whose caller goes away leaves the queue.
   */
  enter(client: string, res: ServerResponse, start: () => void, refuse: () => void): void {
    const call: Call = { client, res, start, refuse };
    if (this.mayRun(client)) {
      this.run(call);
      return;
    }
    const queue = this.waiting.get(client) ?? [];
    if (queue.length >= this.limits.queuePerClient || this.waitingCount >= this.limits.queue) {
      refuse();
      return;
    }
    queue.push(call);
    this.waiting.set(client, queue);
    this.waitingCount++;
    call.timer = setTimeout(() => {
      if (this.leaveQueue(call)) call.refuse();
    }, this.limits.queueTimeoutMs);
    res.once('close', () => this.leaveQueue(call));
  }

  private mayRun(client: string): boolean {
    return this.running < this.limits.inFlight && (this.runningBy.get(client) ?? 0) < this.limits.inFlightPerClient;
  }

  private run(call: Call): void {
    this.running++;
    this.runningBy.set(call.client, (this.runningBy.get(call.client) ?? 0) + 1);
    call.res.once('close', () => {
      this.running--;
      const left = (this.runningBy.get(call.client) ?? 1) - 1;
      if (left === 0) this.runningBy.delete(call.client);
      else this.runningBy.set(call.client, left);
      this.runNext();
    });
    call.start();
  }

  /** One slot has been freed: the first client in turn that may run now runs its oldest call. */
  private runNext(): void {
    for (const [client, queue] of this.waiting) {
      if (!this.mayRun(client)) {
        if (this.running >= this.limits.inFlight) return;
        continue;
      }
      const call = queue[0];
      this.leaveQueue(call);
      // Its turn is used: the client goes to the back of the line.
      const rest = this.waiting.get(client);
      if (rest) {
        this.waiting.delete(client);
        this.waiting.set(client, rest);
      }
      this.run(call);
      return;
    }
  }

  /** Takes a waiting call out of its queue; false when it was not waiting any more. */
  private leaveQueue(call: Call): boolean {
    const queue = this.waiting.get(call.client);
    const at = queue?.indexOf(call) ?? -1;
    if (!queue || at < 0) return false;
    queue.splice(at, 1);
    if (queue.length === 0) this.waiting.delete(call.client);
    this.waitingCount--;
    clearTimeout(call.timer);
    return true;
  }
}
