import {
  type AccessEvent,
  countersChangeOf,
  LiveCountersSchema,
  type LiveCounters,
  normalizeUpstream,
  type LiveSnapshot,
  type SessionEvent,
  type UpstreamMessage,
} from '@pm/shared';
import type { ApiClient } from './api-client';
import { emitLive, type GatewayServer } from './gateway-io';
import type { IdentityCache } from './identity-cache';
import type { UpstreamLease } from './lease';
import { LiveState } from './live-state';
import type { Logger } from './logger';
import type { GatewayMetrics } from './metrics';
import type { SnapshotStore, StoredLive } from './snapshot-store';
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
  /** With `clustered`: the upstream follows the person's tabs (claims and hand-overs, README "Part 26"). */
  leaseFollowsTabs?: boolean;
  reconnectDelayMs?: number;
  /** How many times an upstream reconnects after 1006 before it gives up (SPEC §9: 50). */
  upstreamMaxAttempts?: number;
  /** Forgets a revoked token's identity on every instance. */
  forgetToken(token: string): void;
  /** The api says the person's access changed: every instance's tabs of the person follow (issue 30). */
  accessChanged(personId: number, event: AccessEvent): Promise<void>;
  /** Called when the hub has nothing left to do on this instance. */
  dispose(personId: number): void;
  /** This instance's id, sent with every upstream so the api may send it fan-out frames (issue 31). */
  gatewayId?: string;
  /** A fan-out frame reached one of this instance's upstreams: each listed person's hub takes its copy. */
  fanOut?(message: UpstreamMessage, pairs: number[]): void;
  /**
   * With Redis: this instance has `tabs` of the person's tabs and could not take the upstream;
   * the holder hands it over when it has fewer of them (README "Part 26").
   */
  claimLease?(personId: number, tabs: number): void;
  /** With Redis: this instance just handed the person's upstream over; the claimers take it at once. */
  leaseFreed?(personId: number): void;
}

/**
 * How long a push that came ahead of its number (a fan-out frame overtaking the person's own
 * upstream, issue 31) waits for the ones before it; then the upstream resumes from the journal.
 */
export const HOLD_AHEAD_MS = 3_000;

/**
 * Where a new holder's snapshot versions start: the clock (ms). A tab that stayed connected
 * through a takeover keeps what it holds and takes only newer snapshots (the console's rule), so
 * a holder starting from 0 — Redis restarted empty, or the stored state was older than what the
 * tabs were sent — had every snapshot ignored and those tabs' counters drifted (issue 35, the
 * chaos run). Versions rise by one per change, far slower than the clock, so a later holder
 * always starts above an earlier one.
 */
export function versionFloor(): number {
  return Date.now();
}

/** The stored state of the previous holder, numbered from at least the clock. */
function takenOver(stored: StoredLive): StoredLive {
  const version = Math.max(stored.snapshot.version, versionFloor());
  return { ...stored, snapshot: { ...stored.snapshot, version } };
}

/** What a push becomes for the tabs and the counters (null: an event number no topic takes). */
export type PreparedEvent = ReturnType<typeof prepareEvent>;
export function prepareEvent(message: UpstreamMessage) {
  return normalizeUpstream(message) ?? countersChangeOf(message);
}

/** A tab on this instance: the token it signed in with and when that token expires (epoch ms). */
interface LocalTab {
  token: string;
  expiresAt: number;
}

/**
 * One signed-in person on this gateway instance: the person's tabs here and, when this
 * instance holds the person's lease, the one upstream connection and the live counters.
 */
export class PersonHub {
  /** Local tab socket ids → the token each signed in with. */
  private readonly tabs = new Map<string, LocalTab>();
  private upstream: UpstreamConnection | null = null;
  private upstreamToken: string | null = null;
  /**
   * The counters and the last push delivered, while this instance holds the upstream. Without
   * Redis it outlives an upstream that is replaced (another tab's token), so the new one resumes.
   */
  private state: LiveState | null = null;
  private holding = false;
  private reloading = false;
  private reloadAgain = false;
  private acquiring = false;
  private disposed = false;
  /** The api closed the upstream for good (or reconnects ran out): only a new tab tries again. */
  private givenUp = false;
  private graceTimer: NodeJS.Timeout | null = null;
  /**
   * The upstream token's account and the permissions it holds as last heard: the counters are
   * kept to them (a topic taken away counts nothing from the moment the change arrives, issue 30).
   */
  private access: { accId: number; perms: ReadonlySet<string> } | null = null;
  private leaseTimer: NodeJS.Timeout | null = null;
  /**
   * After handing the upstream over (epoch ms): this instance does not take the lease back before
   * then, so the instance with more of the person's tabs gets it (unless that one never comes).
   */
  private yieldUntil = 0;
  /** Pushes that came ahead of their number (see {@link HOLD_AHEAD_MS}), by number. */
  private readonly ahead = new Map<number, { message: UpstreamMessage; event: PreparedEvent }>();
  private aheadTimer: NodeJS.Timeout | null = null;
  /**
   * The current upstream said where its stream starts (its first message): a fan-out frame that
   * overtakes that message waits for it, as the numbers it carries follow it.
   */
  private streamStarted = false;
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

  addTab(socketId: string, token: string, expiresAt: number): void {
    this.tabs.set(socketId, { token, expiresAt });
    this.givenUp = false;
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = null;
    void this.lead();
  }

  /** A tab's token was renewed (a wall screen's session): the upstream prefers the token that lasts. */
  tabRenewed(socketId: string, expiresAt: number): void {
    const tab = this.tabs.get(socketId);
    if (tab) tab.expiresAt = expiresAt;
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
    return (await this.ctx.snapshots.load(this.personId))?.snapshot ?? null;
  }

  /** The token the upstream should use: the local tab's that expires last. */
  private bestToken(): string | undefined {
    let best: LocalTab | undefined;
    for (const tab of this.tabs.values()) if (!best || tab.expiresAt > best.expiresAt) best = tab;
    return best?.token;
  }

  /** Tries to become the instance holding this person's upstream; retries while tabs remain here. */
  private async lead(): Promise<void> {
    if (this.holding || this.acquiring || this.disposed || this.tabs.size === 0) return;
    if (Date.now() < this.yieldUntil) return this.scheduleLeaseTick();
    this.acquiring = true;
    let acquired = false;
    let stored: StoredLive | null = null;
    try {
      acquired = await this.ctx.lease.acquire(this.personId);
      // Taking over from another instance: continue from the last state and push it delivered.
      if (acquired && this.ctx.clustered) stored = await this.ctx.snapshots.load(this.personId);
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'lease not reachable');
    } finally {
      this.acquiring = false;
    }
    const token = this.bestToken();
    if (this.disposed || (acquired && token === undefined)) {
      if (acquired) await this.ctx.lease.release(this.personId).catch(() => undefined);
      if (!this.disposed && this.tabs.size === 0) this.dispose();
      return;
    }
    this.log.debug({ acquired }, 'upstream lease');
    if (acquired && token !== undefined) {
      this.holding = true;
      if (this.ctx.clustered) this.state = stored ? new LiveState(takenOver(stored)) : new LiveState(versionFloor());
      this.openUpstream(token);
    } else if (!acquired && this.tabs.size > 0) {
      // Held elsewhere: the holder hands it over if it has fewer of the person's tabs than here.
      this.ctx.claimLease?.(this.personId, this.tabs.size);
    }
    this.scheduleLeaseTick();
  }

  /** Tries to take the upstream now (the holder just handed it over, a 'leaseFreed' message). */
  takeFreedLease(): void {
    void this.lead();
  }

  /**
   * Another instance has `tabs` of this person's tabs and not the upstream. When this instance
   * holds it with fewer of them, it hands it over, so that most of the person's tabs get each push
   * from the instance that receives it and not through the Redis stream (README "Part 26"): the
   * last state is sent to Redis, the upstream closed (a push still arriving on it is dropped, not
   * delivered: the next holder resumes after the last push this instance delivered), the lease
   * released, and the claimers told to take it at once. This instance does not take it back for a
   * lease's lifetime. A tie or more tabs here keeps it (no back and forth).
   */
  considerClaim(tabs: number): void {
    if (!this.holding || this.acquiring || this.disposed || this.tabs.size >= tabs) return;
    this.ctx.metrics.upstreamHandovers.inc();
    this.log.debug({ here: this.tabs.size, there: tabs }, 'upstream handed over');
    this.yieldUntil = Date.now() + this.ctx.lease.ttlMs;
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = null;
    // On the one Redis connection, in this order: the events' stream entry, the state that counts
    // them, the lease's release; the next holder acquires after the release and reads that state.
    this.ctx.snapshots.sendNow(this.personId);
    this.stepDown();
    this.ctx.leaseFreed?.(this.personId);
    if (this.tabs.size === 0) this.dispose();
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
    this.streamStarted = false;
    this.state ??= new LiveState(versionFloor());
    if (this.access) this.state.restrict(this.access.perms);
    void this.readAccess(token);
    const upstream = new UpstreamConnection({
      apiUrl: this.ctx.api.targets,
      token,
      personId: this.personId,
      logger: this.ctx.logger,
      reconnectDelayMs: this.ctx.reconnectDelayMs,
      maxAttempts: this.ctx.upstreamMaxAttempts,
      gate: this.ctx.api.gate,
      // Every (re)connect continues after the last push delivered: nothing missed, nothing twice.
      resumeFrom: () => this.state?.pushSeq ?? null,
      gatewayId: this.ctx.gatewayId,
      countersFirst: true,
      handlers: {
        onFanOut: this.ctx.fanOut,
        // The counters are reloaded when the api says where its stream continues (deliver()).
        onOpen: (reconnected) => {
          this.streamStarted = false;
          this.ctx.metrics.upstreamOpens.inc();
          if (reconnected) this.ctx.metrics.upstreamReconnects.inc();
        },
        // Closed by this instance (handed over, stepped down): what still arrives is not delivered.
        onMessage: (m) => {
          if (this.upstream === upstream) this.deliverInOrder(m);
        },
        onRevoked: (reason) => void this.revoke(token, /expire/i.test(reason) ? 'expired' : 'forcedLogout'),
        onClosed: (code) => {
          if (this.upstream !== upstream) return;
          this.givenUp = true;
          this.stepDown();
          this.dropTabsAfterGivingUp(code);
        },
      },
    });
    this.upstream = upstream;
    upstream.open();
  }

  /**
   * Reloads the counters from the api and sends every tab the new snapshot. The counters come as
   * of a push number: LiveState keeps the pushes they do not include yet (issue 14). One reload
   * at a time; asking during one makes another follow it.
   */
  async reconcile(): Promise<void> {
    if (this.reloading) {
      this.reloadAgain = true;
      return;
    }
    const token = this.upstreamToken;
    const state = this.state;
    if (!this.holding || !token || !state) return;
    // Before the upstream said where its stream starts, the reload that follows that message does it.
    const ticket = state.beginReload();
    if (!ticket) return;
    this.reloading = true;
    try {
      const { counters, pushSeq } = await this.ctx.api.loadCounters(token);
      if (!this.holding || this.state !== state) return;
      const snapshot = state.finishReload(ticket, counters, pushSeq);
      if (snapshot) this.publishSnapshot(snapshot);
    } catch (err) {
      state.cancelReload(ticket);
      this.log.warn({ err: (err as Error).message }, 'counters could not be loaded');
    } finally {
      this.reloading = false;
      if (this.reloadAgain) {
        this.reloadAgain = false;
        void this.reconcile();
      }
    }
  }

  /**
   * Counters the upstream's first message carried (as of their own push number, which the stream
   * follows): taken as a reload's answer, without asking the api. A reload already on its way is
   * superseded (its answer is dropped by LiveState).
   */
  private takeCounters(answer: LiveCounters): void {
    const state = this.state;
    const ticket = state?.beginReload();
    if (!state || !ticket) return void this.reconcile();
    const { pushSeq, ...counters } = answer;
    this.ctx.metrics.countersInFirstMessage.inc();
    const snapshot = state.finishReload(ticket, counters, pushSeq);
    if (snapshot) this.publishSnapshot(snapshot);
  }

  /**
   * Reads the permissions of the upstream's token (asked anew after an access change of the
   * person: the identity cache gives no answer asked before it) and keeps the counters to them.
   * An answer overtaken by a newer change, or by another upstream token, is left: its own read follows.
   */
  private async readAccess(token: string): Promise<void> {
    try {
      const { identity, askedAt } = await this.ctx.identities.lookup(token);
      if (!identity || this.upstreamToken !== token || this.ctx.identities.changedSince(this.personId, askedAt)) return;
      this.keepAccess(identity.accId, identity.perms);
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'permissions for the counters could not be read');
    }
  }

  /** The counters follow these permissions from now on; the tabs get the snapshot if it changed. */
  private keepAccess(accId: number, perms: ReadonlySet<string>): void {
    this.access = { accId, perms };
    const snapshot = this.state?.restrict(perms);
    if (snapshot && this.state?.loaded) this.publishSnapshot(snapshot);
  }

  /**
   * An access change of the person: the permissions the push carries, when they are the upstream
   * account's, hold at once; otherwise they are read anew (the counters' reload follows anyway).
   */
  private followAccess(event: AccessEvent): void {
    const { accIds, perms } = event.payload;
    const access = this.access;
    if (access && perms && accIds?.includes(access.accId)) this.keepAccess(access.accId, new Set(perms));
    else if (this.upstreamToken) void this.readAccess(this.upstreamToken);
  }

  private publishSnapshot(snapshot: LiveSnapshot): void {
    this.ctx.snapshots.save(this.personId, snapshot, this.state?.pushSeq ?? null);
    this.ctx.io.to(rooms.person(this.personId)).emit('snapshot', snapshot);
  }

  /**
   * This person's copy of a fan-out frame (issue 31), numbered `seq`; `event` is the frame's
   * event, made once for all its persons. Taken only while this instance holds the upstream.
   */
  deliverFannedOut(message: UpstreamMessage, seq: number, event: PreparedEvent): void {
    if (!this.holding || !this.upstream) return;
    this.deliverInOrder({ ...message, pushSeq: seq }, event, true);
  }

  /**
   * Delivers pushes in the order of their numbers: a fan-out frame comes on another person's
   * upstream and may overtake a push of this person's own, so a push ahead of the next number
   * waits for the ones before it (at most HOLD_AHEAD_MS, then the upstream resumes from the
   * journal and the waiting ones are dropped: they come again from there).
   */
  private deliverInOrder(message: UpstreamMessage, event?: PreparedEvent, fannedOut = false): void {
    const seq = message.pushSeq;
    const state = this.state;
    if (message.channelType === 'heartbeat') {
      if (seq !== undefined) this.streamStarted = true;
    } else if (seq !== undefined && state) {
      if ((fannedOut && !this.streamStarted) || (state.pushSeq !== null && seq > state.pushSeq + 1)) {
        this.ahead.set(seq, { message, event: event ?? prepareEvent(message) });
        this.aheadTimer ??= setTimeout(() => this.aheadTooLong(), HOLD_AHEAD_MS);
        return;
      }
    }
    this.deliver(message, event);
    if (this.ahead.size === 0) return;
    for (;;) {
      const at = this.state?.pushSeq;
      if (at == null) break;
      for (const n of this.ahead.keys()) if (n <= at) this.ahead.delete(n);
      const next = this.ahead.get(at + 1);
      if (!next) break;
      this.ahead.delete(at + 1);
      this.deliver(next.message, next.event);
    }
    if (this.ahead.size === 0) this.clearAhead();
  }

  private aheadTooLong(): void {
    this.aheadTimer = null;
    if (this.ahead.size === 0) return;
    this.log.warn({ waiting: this.ahead.size, pushSeq: this.state?.pushSeq }, 'pushes ahead of a gap; resuming');
    this.clearAhead();
    this.upstream?.restart();
  }

  private clearAhead(): void {
    this.ahead.clear();
    if (this.aheadTimer) clearTimeout(this.aheadTimer);
    this.aheadTimer = null;
  }

  private deliver(message: UpstreamMessage, prepared?: PreparedEvent): void {
    if (message.channelType === 'heartbeat') {
      // A resuming connection's first message: where its stream continues. Then the counters:
      // carried by the message itself (asked with `counters=1`), or else read from the api.
      if (message.pushSeq !== undefined && this.state) {
        this.state.streamStartsAfter(message.pushSeq);
        const first = LiveCountersSchema.safeParse((message as { counters?: unknown }).counters);
        if (first.success) this.takeCounters(first.data);
        else void this.reconcile();
      }
      return;
    }
    const event = prepared === undefined ? prepareEvent(message) : prepared;
    if (!event) {
      this.ctx.metrics.droppedEvents.inc();
      this.log.warn(
        { channelType: message.channelType, messageType: message.messageType },
        'unknown upstream event dropped',
      );
      return;
    }
    const state = this.state;
    const applied = state?.applyPush(event, message.pushSeq);
    // Already delivered (sent again after a reconnect or a takeover): the tabs have it.
    if (applied === null) return;
    // A counters change is no event for tabs: they get the new snapshot instead (below).
    if (event.topic === 'access') {
      // Not passed on as it came: each tab is told once its permissions were updated (on every
      // instance).
      this.ctx.metrics.events.inc({ topic: event.topic });
      void this.ctx.accessChanged(this.personId, event);
      // The counters follow the new permissions at once (a topic taken away counts nothing, a
      // topic given counts what the api counts): the api forgot the person's permissions before
      // it pushed, so this reload reads them as they are now.
      if (event.kind === 'permissions') {
        // Pushes of a topic taken away count nothing from here on (not only after the reload).
        this.followAccess(event);
        void this.reconcile();
      }
    } else if (event.topic !== null) {
      this.ctx.metrics.events.inc({ topic: event.topic });
      // Numbered with the counters' version it makes: a tab whose snapshot (read from Redis on
      // another instance) already counts it does not count it again.
      const numbered = applied ? { ...event, version: applied.snapshot.version } : event;
      emitLive(this.ctx.io.to(rooms.topic(this.personId, event.topic)), numbered);
    }
    if (!state || !applied) return;
    // Saved after the emit (one Redis connection keeps the order): a successor never skips this event.
    this.ctx.snapshots.save(this.personId, applied.reloaded ?? applied.snapshot, state.pushSeq);
    const snapshot = applied.reloaded ?? (event.topic === null && state.loaded ? applied.snapshot : null);
    if (snapshot) this.ctx.io.to(rooms.person(this.personId)).emit('snapshot', snapshot);
  }

  /**
   * A token was revoked (logout, password change, expiry): its tabs are told on the session
   * topic and dropped; the upstream closes at once if it used that token, and reopens with
   * another tab's token when the person still has tabs signed in otherwise.
   */
  async revoke(token: string, kind: SessionEvent['kind']): Promise<void> {
    this.ctx.forgetToken(token);
    const room = rooms.token(token);
    const event: SessionEvent = { topic: 'session', kind, channelType: 3001, payload: { reason: kind } };
    emitLive(this.ctx.io.to(room), event);
    this.ctx.io.in(room).disconnectSockets();
    for (const [id, t] of this.tabs) if (t.token === token) this.tabs.delete(id);
    if (this.upstreamToken === token) {
      this.stepDown();
      if (this.tabs.size > 0) void this.lead();
    }
    if (this.tabs.size === 0 && !this.holding) this.dispose();
  }

  /**
   * The upstream gave up (SPEC §9: 50 reconnects after 1006, or a close that does not reconnect):
   * nothing live reaches the person's tabs any more, so they must not go on showing counters as if
   * they were. Every tab of the person (on every instance) is disconnected: the console then shows
   * "reconnecting", then "offline since …", and connects again after its growing pause; that
   * handshake opens a new upstream (addTab), whose resume misses nothing.
   */
  private dropTabsAfterGivingUp(code: number): void {
    this.log.warn({ code, tabs: this.tabs.size }, "upstream gave up; the person's tabs are disconnected to reconnect");
    this.ctx.metrics.upstreamGiveUps.inc();
    this.ctx.io.in(rooms.person(this.personId)).disconnectSockets(true);
  }

  /** Closes the upstream and gives up the lease (another instance, or a later tab, may lead). */
  private stepDown(): void {
    const wasHolding = this.holding;
    this.clearAhead();
    this.holding = false;
    this.upstream?.close();
    this.upstream = null;
    this.upstreamToken = null;
    // With Redis the next holder (maybe this instance again) continues from what is stored there.
    if (this.ctx.clustered) this.state = null;
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
