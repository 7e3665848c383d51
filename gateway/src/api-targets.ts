import { endpoints } from '@pm/shared';
import type { Logger } from './logger';

/** How often each api is asked GET /health while there are several (GatewayOptions.apiProbeMs). */
export const DEFAULT_API_PROBE_MS = 1_000;
/** A health check not answered within this long counts as failed (a frozen api accepts and never answers). */
export const API_PROBE_TIMEOUT_MS = 1_500;
/** Failed checks in a row that mark an api down (a refused connection marks it down at once). */
const FAILURES_TO_MARK_DOWN = 2;

/** An api went down or came back: `up` is its new state. */
export type TargetListener = (url: string, up: boolean) => void;

/**
 * The api processes this gateway reaches (API_URLS; README "Running at scale"): the first is its
 * own, the others are used, in order, while it is down. Each is asked GET /health every second
 * while there are several; an api that refuses connections is marked down at once, one that does
 * not answer (killed host, frozen process) after two checks in a row, and up again on the first
 * answer. REST calls and new upstream WebSockets go to `current()`; upstreams open on an api
 * marked down are moved (upstream-connection.ts). With one api nothing is checked and `current()`
 * is always that api, as before.
 */
export class ApiTargets {
  readonly urls: readonly string[];
  private readonly down = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly listeners = new Set<TargetListener>();
  private timer: NodeJS.Timeout | null = null;
  private readonly checking = new Map<string, Promise<boolean>>();

  constructor(
    urls: readonly string[],
    private readonly opts: { logger?: Logger; probeMs?: number } = {},
  ) {
    if (urls.length === 0) throw new Error('at least one api URL is needed');
    this.urls = urls.map((u) => u.replace(/\/$/, ''));
  }

  /** True when there is another api to fall back to. */
  get several(): boolean {
    return this.urls.length > 1;
  }

  /** Where a call goes now: the first api not marked down (the first of all when every one is). */
  current(): string {
    return this.urls.find((u) => !this.down.has(u)) ?? this.urls[0];
  }

  /** The apis in the order a call tries them: those up first, in order, then those marked down. */
  inOrder(): string[] {
    return [...this.urls.filter((u) => !this.down.has(u)), ...this.urls.filter((u) => this.down.has(u))];
  }

  isUp(url: string): boolean {
    return !this.down.has(url);
  }

  /** True when at least one api is not marked down. */
  get anyUp(): boolean {
    return this.down.size < this.urls.length;
  }

  onChange(listener: TargetListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A call could not connect to `url` (refused, reset before an answer): it is down until it answers again. */
  markDown(url: string, reason: string): void {
    if (!this.several || this.down.has(url)) return;
    this.down.add(url);
    this.opts.logger?.warn({ api: url, reason, now: this.current() }, 'api marked down; calls go to the next one');
    for (const l of this.listeners) l(url, false);
  }

  private markUp(url: string): void {
    this.failures.delete(url);
    if (!this.down.delete(url)) return;
    this.opts.logger?.info({ api: url }, 'api answers again');
    for (const l of this.listeners) l(url, true);
  }

  /** Asks `url` for its health now (one check at a time per api); answers whether it is up. */
  check(url: string): Promise<boolean> {
    if (!this.several) return Promise.resolve(true);
    let running = this.checking.get(url);
    if (!running) {
      running = this.probe(url).finally(() => this.checking.delete(url));
      this.checking.set(url, running);
    }
    return running;
  }

  private async probe(url: string): Promise<boolean> {
    try {
      const res = await fetch(url + endpoints['GET /health'].path, {
        signal: AbortSignal.timeout(API_PROBE_TIMEOUT_MS),
      });
      await res.body?.cancel();
      if (res.ok) {
        this.markUp(url);
        return true;
      }
      return this.failed(url, `health answered ${res.status}`);
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      if (cause === 'ECONNREFUSED') {
        this.markDown(url, 'connection refused');
        return false;
      }
      return this.failed(url, (err as Error).message);
    }
  }

  private failed(url: string, reason: string): boolean {
    const n = (this.failures.get(url) ?? 0) + 1;
    this.failures.set(url, n);
    if (n >= FAILURES_TO_MARK_DOWN) this.markDown(url, reason);
    return false;
  }

  /** Starts the health checks (only with several apis). */
  start(): void {
    if (!this.several || this.timer) return;
    this.timer = setInterval(() => {
      for (const u of this.urls) void this.check(u);
    }, this.opts.probeMs ?? DEFAULT_API_PROBE_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.listeners.clear();
  }
}

/** True for an error of a connection that never reached the api (nothing was sent to it). */
export function neverConnected(err: unknown): boolean {
  const code =
    (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
  return code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH';
}
