import WebSocket from 'ws';
import {
  ABNORMAL_CLOSE_CODE,
  HEARTBEAT_INTERVAL_MS,
  RECONNECT_DELAY_MS,
  RECONNECT_MAX_ATTEMPTS,
  UpstreamMessageSchema,
  type UpstreamMessage,
} from '@pm/shared';
import type { ApiGate } from './api-gate';
import { ApiTargets, neverConnected } from './api-targets';
import { redactUpstreamPath, type Logger } from './logger';

/** The api closes a revoked or expired token's connections with this code (internal contract). */
export const TOKEN_REVOKED_CLOSE_CODE = 4001;

export interface UpstreamHandlers {
  /** The socket is open; `reconnected` is true after an abnormal close (counters may have drifted). */
  onOpen(reconnected: boolean): void;
  onMessage(message: UpstreamMessage): void;
  /**
   * A fan-out frame (issue 31): one push for several persons whose upstreams this gateway holds,
   * `pairs` = [personId, pushSeq, …]; it may come on any of them. Without this handler the
   * gateway does not ask for them (no `gw` in the upstream's address).
   */
  onFanOut?(message: UpstreamMessage, pairs: number[]): void;
  /** The api no longer accepts the token (close 4001 or upgrade refused with 401). */
  onRevoked(reason: string): void;
  /** Closed for good: a close code that does not reconnect, or the attempts ran out. */
  onClosed(code: number): void;
}

export interface UpstreamOptions {
  /** The api, or the api processes to use in turn (api-targets.ts): each (re)connect goes to the current one. */
  apiUrl: string | ApiTargets;
  token: string;
  personId: number;
  logger: Logger;
  handlers: UpstreamHandlers;
  reconnectDelayMs?: number;
  maxAttempts?: number;
  heartbeatMs?: number;
  /**
   * Resume (issue 14): asked at every (re)connect for the number of the last push received; the
   * api first sends where its stream continues (a heartbeat carrying `pushSeq`), then every push
   * after that number, live ones included, in order. null asks for the latest number. Without this
   * option the connection is live only, as before.
   */
  resumeFrom?: () => number | null;
  /**
   * Takes its turn here for each (re)connect: the upgrade (the api checks the token and reads its
   * journal) holds one of the gateway's api slots until it is open or failed (api-gate.ts).
   */
  gate?: ApiGate;
  /**
   * This gateway instance's id, sent as `gw` (issue 31): the api then sends a push to several
   * persons whose upstreams this instance holds once, as a fan-out frame (handlers.onFanOut).
   */
  gatewayId?: string;
  /**
   * With `resumeFrom`: asks the api for the person's counters in the first message (`counters=1`,
   * issue 34), so no separate counters read follows the open. An api that does not send them
   * leaves the heartbeat without `counters`, and the gateway reads them as before.
   */
  countersFirst?: boolean;
}

/**
 * The one WebSocket to the api for one person (SPEC §7 real-time channel): heartbeat every
 * 10 s, reconnect 5 s after an abnormal close (1006) at most 50 times, nothing else reconnects.
 * With several api processes (API_URLS), an upstream whose api is marked down is cut and opened
 * again at once on the next one, and after an abnormal close it reconnects at once when its api
 * no longer answers and another does; resuming after its last push, it misses nothing.
 */
export class UpstreamConnection {
  private ws: WebSocket | null = null;
  private readonly targets: ApiTargets;
  /** The api the current socket was opened to. */
  private url: string | null = null;
  private readonly unwatch: () => void;
  private heartbeat: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private attempts = 0;
  private everOpened = false;
  private stopped = false;
  private readonly log: Logger;

  constructor(private readonly opts: UpstreamOptions) {
    this.log = opts.logger.child({
      personId: opts.personId,
      upstream: redactUpstreamPath(`/${opts.token}/${opts.personId}`),
    });
    this.targets = typeof opts.apiUrl === 'string' ? new ApiTargets([opts.apiUrl]) : opts.apiUrl;
    // Its api marked down (killed, frozen, cut off): the socket is cut, and the close reconnects.
    this.unwatch = this.targets.onChange((url, up) => {
      if (!up && url === this.url && this.ws) {
        this.log.warn({ api: url }, 'upstream api marked down; moving to the next api');
        this.ws.terminate();
      }
    });
  }

  get isOpen(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  open(): void {
    if (this.stopped) return;
    if (!this.opts.gate) return this.connect(() => undefined);
    // A bulk turn is never refused, only waited for; closed meanwhile, the turn is given back.
    void this.opts.gate.acquire('bulk').then((release) => {
      if (this.stopped) return release();
      this.connect(release);
    });
  }

  private connect(release: () => void): void {
    const url = this.targets.current();
    this.url = url;
    const base = url.replace(/^http/, 'ws');
    const query = new URLSearchParams();
    if (this.opts.resumeFrom) query.set('after', String(this.opts.resumeFrom() ?? 'latest'));
    if (this.opts.gatewayId && this.opts.handlers.onFanOut) query.set('gw', this.opts.gatewayId);
    if (this.opts.resumeFrom && this.opts.countersFirst) query.set('counters', '1');
    const search = query.size > 0 ? `?${query.toString()}` : '';
    const ws = new WebSocket(`${base}/${encodeURIComponent(this.opts.token)}/${this.opts.personId}${search}`, {
      perMessageDeflate: false,
    });
    this.ws = ws;
    let refused = false;

    ws.on('open', () => {
      release();
      const reconnected = this.everOpened || this.attempts > 0;
      this.everOpened = true;
      this.attempts = 0;
      this.log.info({ reconnected }, 'upstream open');
      this.heartbeat = setInterval(
        () => this.send({ channelType: 'heartbeat', time: Date.now() }),
        this.opts.heartbeatMs ?? HEARTBEAT_INTERVAL_MS,
      );
      this.opts.handlers.onOpen(reconnected);
    });
    ws.on('message', (raw) => this.receive(raw.toString()));
    ws.on('error', (err) => {
      // ws reports a refused upgrade as "Unexpected server response: 401", then closes with 1006.
      if (/Unexpected server response: 401/.test(err.message)) refused = true;
      if (neverConnected(err)) this.targets.markDown(url, 'connection refused');
      this.log.warn({ err: err.message }, 'upstream error');
    });
    ws.on('close', (code, reason) => {
      release();
      if (this.heartbeat) clearInterval(this.heartbeat);
      this.heartbeat = null;
      if (this.ws === ws) this.ws = null;
      if (this.stopped) return;
      this.log.info({ code, reason: reason.toString() }, 'upstream closed');
      if (refused || code === TOKEN_REVOKED_CLOSE_CODE) {
        this.stopped = true;
        this.opts.handlers.onRevoked(refused ? 'token refused' : reason.toString() || 'token revoked');
      } else if (code === ABNORMAL_CLOSE_CODE && this.attempts < (this.opts.maxAttempts ?? RECONNECT_MAX_ATTEMPTS)) {
        this.attempts += 1;
        void this.reconnect(url);
      } else {
        this.stopped = true;
        this.opts.handlers.onClosed(code);
      }
    });
  }

  /**
   * After an abnormal close: at once on another api when this one is down (asked now, with
   * several), otherwise after the reconnect delay.
   */
  private async reconnect(url: string): Promise<void> {
    const up = this.targets.several ? await this.targets.check(url) : true;
    if (this.stopped) return;
    const elsewhere = !up && this.targets.current() !== url;
    this.retry = setTimeout(() => this.open(), elsewhere ? 0 : (this.opts.reconnectDelayMs ?? RECONNECT_DELAY_MS));
  }

  /**
   * Drops the socket as if the link broke (1006): it reconnects as after any abnormal close and
   * resumes after the last push delivered (a push that never arrived is read from the journal).
   */
  restart(): void {
    this.ws?.terminate();
  }

  /** The number of reconnect attempts since the last successful open. */
  get reconnectAttempts(): number {
    return this.attempts;
  }

  private send(message: Record<string, unknown>): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  private receive(text: string): void {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.log.warn('upstream sent a message that is not JSON; dropped');
      return;
    }
    const parsed = UpstreamMessageSchema.safeParse(json);
    if (!parsed.success) {
      this.log.warn('upstream sent a message without a valid channelType; dropped');
      return;
    }
    const fanout = (parsed.data as { fanout?: unknown }).fanout;
    if (fanout !== undefined) {
      const { fanout: _, ...message } = parsed.data;
      if (Array.isArray(fanout) && fanout.length % 2 === 0 && fanout.every((n) => Number.isInteger(n)))
        this.opts.handlers.onFanOut?.(message, fanout as number[]);
      else this.log.warn('upstream sent a fan-out frame without a valid list; dropped');
      return;
    }
    this.opts.handlers.onMessage(parsed.data);
  }

  /** Closes for good (logout, last tab gone, shutdown); never reconnects afterwards. */
  close(code = 1000, reason = 'closed by gateway'): void {
    this.stopped = true;
    this.unwatch();
    if (this.retry) clearTimeout(this.retry);
    if (this.heartbeat) clearInterval(this.heartbeat);
    const ws = this.ws;
    this.ws = null;
    if (!ws) return;
    if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
    else ws.close(code, reason);
  }
}
