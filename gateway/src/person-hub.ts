import { normalizeUpstream, type LiveSnapshot, type SessionEvent, type UpstreamMessage } from '@pm/shared';
import type { ApiClient } from './api-client';
import { emitLive, type GatewayServer } from './gateway-io';
import type { IdentityCache } from './identity-cache';
import type { UpstreamLease } from './lease';
import { LiveState } from './live-state';
import type { Logger } from './logger';
import type { GatewayMetrics } from './metrics';
import type { SnapshotStore } from './snapshot-store';
import { rooms } from './tab-rooms';
import { UpstreamConnection } from './upstream-connection';

/** What every person's hub shares: the servers and stores of one gateway instance. */
export interface HubContext {
  io: GatewayServer;
  api: ApiClient;
  identities: IdentityCache;
  lease: UpstreamLease;
  snapshots: SnapshotStore;
  metrics: GatewayMetrics;
  logger: Logger;
  /** How long the upstream stays open after the person's last tab left (a reload must not reopen it). */
  graceMs: number;
  /** True with Redis: other instances may hold tabs and the upstream. */
  clustered: boolean;
  reconnectDelayMs?: number;
  /** Called when the hub has nothing left to do on this instance. */
  dispose(personId: number): void;
}

/**
 * One signed-in person on this gateway instance: the person's tabs here and, when this
 * instance holds the person's lease, the one upstream connection and the live counters.
 */
export class PersonHub {
  /** Local tab socket ids → the token each signed in with. */
  private readonly tabs = new Map<string, string>();
  private upstream: UpstreamConnection | null = null;
  private upstreamToken: string | null = null;
  private state: LiveState | null = null;
  private holding = false;
  private acquiring = false;
  private disposed = false;
  /** The api closed the upstream for good (or reconnects ran out): only a new tab tries again. */
  private givenUp = false;
  private graceTimer: NodeJS.Timeout | null = null;
  private leaseTimer: NodeJS.Timeout | null = null;
  private readonly log: Logger;

  constructor(
    readonly personId: number,
    private readonly ctx: HubContext,
  ) {
    this.log = ctx.logger.child({ personId });
  }

  get hasOpenUpstream(): boolean {
    return this.upstream?.isOpen === true;
  }

  get tabCount(): number {
    return this.tabs.size;
  }

  addTab(socketId: string, token: string): void {
    this.tabs.set(socketId, token);
    this.givenUp = false;
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = null;
    void this.lead();
  }

  removeTab(socketId: string): void {
    this.tabs.delete(socketId);
    if (this.tabs.size > 0) return;
    if (!this.holding) return this.dispose();
    this.graceTimer = setTimeout(() => {
      this.graceTimer = null;
      void this.releaseIfUnused();
    }, this.ctx.graceMs);
  }

  /**
   * The snapshot a new tab gets at once. Null while the counters are still loading: the tab
   * has joined the person's room, so the snapshot reaches it as soon as they are.
   */
  async snapshotForNewTab(): Promise<LiveSnapshot | null> {
    if (this.holding) return this.state?.loaded ? this.state.snapshot : null;
    return this.ctx.snapshots.load(this.personId);
  }

  /** Tries to become the instance holding this person's upstream; retries while tabs remain here. */
  private async lead(): Promise<void> {
    if (this.holding || this.acquiring || this.disposed) return;
    const token = this.tabs.values().next().value;
    if (token === undefined) return;
    this.acquiring = true;
    let acquired = false;
    try {
      acquired = await this.ctx.lease.acquire(this.personId);
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'lease not reachable');
    } finally {
      this.acquiring = false;
    }
    if (this.disposed) {
      if (acquired) await this.ctx.lease.release(this.personId).catch(() => undefined);
      return;
    }
    this.log.debug({ acquired }, 'upstream lease');
    if (acquired) {
      this.holding = true;
      this.openUpstream(token);
    }
    this.scheduleLeaseTick();
  }

  private scheduleLeaseTick(): void {
    if (this.leaseTimer || !Number.isFinite(this.ctx.lease.ttlMs) || this.disposed) return;
    this.leaseTimer = setTimeout(() => {
      this.leaseTimer = null;
      void this.leaseTick();
    }, this.ctx.lease.ttlMs / 3);
  }

  /** Holder: extend the lease or step down. Others: try to take over (the holder may have died). */
  private async leaseTick(): Promise<void> {
    if (this.disposed) return;
    if (this.holding) {
      const kept = await this.ctx.lease.renew(this.personId).catch(() => false);
      if (!kept) {
        this.log.warn('lease lost; another instance holds the upstream now');
        this.stepDown();
      } else if (this.tabs.size === 0 && !this.graceTimer) {
        await this.releaseIfUnused();
      }
    } else if (this.tabs.size > 0 && !this.givenUp) {
      await this.lead();
    }
    this.scheduleLeaseTick();
  }

  private openUpstream(token: string): void {
    this.upstreamToken = token;
    this.state ??= new LiveState();
    const upstream = new UpstreamConnection({
      apiUrl: this.ctx.api.baseUrl,
      token,
      personId: this.personId,
      logger: this.ctx.logger,
      reconnectDelayMs: this.ctx.reconnectDelayMs,
      handlers: {
        onOpen: (reconnected) => {
          this.ctx.metrics.upstreamOpens.inc();
          if (reconnected) this.ctx.metrics.upstreamReconnects.inc();
          void this.reconcile();
        },
        onMessage: (m) => this.deliver(m),
        onRevoked: (reason) => void this.revoke(token, /expire/i.test(reason) ? 'expired' : 'forcedLogout'),
        onClosed: () => {
          if (this.upstream !== upstream) return;
          this.givenUp = true;
          this.stepDown();
        },
      },
    });
    this.upstream = upstream;
    upstream.open();
  }

  /** Reloads the counters from the api and sends every tab the new snapshot. */
  async reconcile(): Promise<void> {
    const token = this.upstreamToken;
    if (!this.holding || !token || !this.state) return;
    try {
      const counters = await this.ctx.api.loadCounters(token);
      if (!this.holding || !this.state) return;
      const stored = this.ctx.clustered ? await this.ctx.snapshots.load(this.personId) : null;
      const snapshot = this.state.replace(counters, stored?.version ?? 0);
      this.publishSnapshot(snapshot);
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'counters could not be loaded');
    }
  }

  private publishSnapshot(snapshot: LiveSnapshot): void {
    this.ctx.snapshots.save(this.personId, snapshot);
    this.ctx.io.to(rooms.person(this.personId)).emit('snapshot', snapshot);
  }

  private deliver(message: UpstreamMessage): void {
    if (message.channelType === 'heartbeat') return;
    const event = normalizeUpstream(message);
    if (!event) {
      this.ctx.metrics.droppedEvents.inc();
      this.log.warn(
        { channelType: message.channelType, messageType: message.messageType },
        'unknown upstream event dropped',
      );
      return;
    }
    if (this.state) this.ctx.snapshots.save(this.personId, this.state.apply(event));
    this.ctx.metrics.events.inc({ topic: event.topic });
    emitLive(this.ctx.io.to(rooms.topic(this.personId, event.topic)), event);
  }

  /**
   * A token was revoked (logout, password change, expiry): its tabs are told on the session
   * topic and dropped; the upstream closes at once if it used that token, and reopens with
   * another tab's token when the person still has tabs signed in otherwise.
   */
  async revoke(token: string, kind: SessionEvent['kind']): Promise<void> {
    this.ctx.identities.forget(token);
    const room = rooms.token(token);
    const event: SessionEvent = { topic: 'session', kind, channelType: 3001, payload: { reason: kind } };
    emitLive(this.ctx.io.to(room), event);
    this.ctx.io.in(room).disconnectSockets();
    for (const [id, t] of this.tabs) if (t === token) this.tabs.delete(id);
    if (this.upstreamToken === token) {
      this.stepDown();
      if (this.tabs.size > 0) void this.lead();
    }
    if (this.tabs.size === 0 && !this.holding) this.dispose();
  }

  /** Closes the upstream and gives up the lease (another instance, or a later tab, may lead). */
  private stepDown(): void {
    const wasHolding = this.holding;
    this.holding = false;
    this.upstream?.close();
    this.upstream = null;
    this.upstreamToken = null;
    this.state = null;
    if (wasHolding) void this.ctx.lease.release(this.personId).catch(() => undefined);
  }

  private async releaseIfUnused(): Promise<void> {
    if (this.tabs.size > 0 || this.disposed) return;
    if (this.ctx.clustered) {
      // Tabs of this person on other instances still need the upstream this instance holds.
      const elsewhere = await this.ctx.io
        .in(rooms.person(this.personId))
        .fetchSockets()
        .then(
          (s) => s.length,
          () => 0,
        );
      if (elsewhere > 0 || this.tabs.size > 0) return this.scheduleLeaseTick();
    }
    this.dispose();
  }

  /** Ends everything this instance does for the person. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.graceTimer) clearTimeout(this.graceTimer);
    if (this.leaseTimer) clearTimeout(this.leaseTimer);
    this.stepDown();
    this.ctx.dispose(this.personId);
  }
}
