import type { AccessEvent, SessionEvent, UpstreamMessage } from '@pm/shared';
import { applyAccessChange } from './access-changes';
import { emitLive } from './gateway-io';
import { tokenHash } from './identity-cache';
import { PersonHub, prepareEvent, type HubContext } from './person-hub';
import { DEFAULT_REBALANCE } from './rebalance';
import { rooms } from './tab-rooms';

/** How long claims are gathered into one message (they are not urgent: the lease ticks every 2 s). */
export const CLAIMS_EVERY_MS = 50;
/** While this instance is busy, its claims wait this long and are looked at again (README "Part 30"). */
export const CLAIMS_BUSY_RETRY_MS = 1_000;

/**
 * Whether an instance is in a storm, by the rebalancer's busy rule (rebalance.ts): more handshakes in
 * flight (connections not yet a tab) or more new connections a second than it allows. A hand-over
 * opens an upstream, whose identity call waits at the api with the storm's (README "Part 26").
 */
export function storming(load: { handshakes: number; arrivalsPerSecond: number }): boolean {
  return (
    load.handshakes > DEFAULT_REBALANCE.busyHandshakes ||
    load.arrivalsPerSecond > DEFAULT_REBALANCE.busyArrivalsPerSecond
  );
}

/** All persons with tabs (or a held upstream) on this gateway instance. */
export class PersonHubs {
  private readonly hubs = new Map<number, PersonHub>();
  private readonly ctx: HubContext;
  /** Claims waiting to be sent (person → tabs here), and freed leases; see {@link CLAIMS_EVERY_MS}. */
  private readonly claims = new Map<number, number>();
  private claimsTimer: NodeJS.Timeout | null = null;
  private readonly freed: number[] = [];
  private freedTimer: NodeJS.Immediate | null = null;
  /** New engine connections in the current second, and in the last whole one (for {@link storming}). */
  private arrivals = 0;
  private arrivalsLastSecond = 0;
  private arrivalsTimer: NodeJS.Timeout | null = null;

  constructor(
    ctx: Omit<HubContext, 'dispose' | 'forgetToken' | 'accessChanged' | 'fanOut' | 'claimLease' | 'leaseFreed'>,
  ) {
    this.ctx = {
      ...ctx,
      fanOut: (message, pairs) => this.fanOut(message, pairs),
      dispose: (personId) => this.hubs.delete(personId),
      forgetToken: (token) => this.forgetToken(token),
      accessChanged: (personId, event) => this.accessChanged(personId, event),
      ...(ctx.clustered &&
        ctx.leaseFollowsTabs && {
          claimLease: (personId, tabs) => this.claimLease(personId, tabs),
          leaseFreed: (personId) => this.leaseFreed(personId),
        }),
    };
    if (ctx.clustered && ctx.leaseFollowsTabs) {
      ctx.io.engine.on('connection', () => this.arrivals++);
      this.arrivalsTimer = setInterval(() => {
        this.arrivalsLastSecond = this.arrivals;
        this.arrivals = 0;
      }, 1_000);
      this.arrivalsTimer.unref();
    }
  }

  /** This instance's handshakes in flight and new connections a second. */
  private load(): { handshakes: number; arrivalsPerSecond: number } {
    const io = this.ctx.io;
    return {
      handshakes: Math.max(0, io.engine.clientsCount - io.of('/').sockets.size),
      arrivalsPerSecond: Math.max(this.arrivals, this.arrivalsLastSecond),
    };
  }

  /**
   * The upstream follows the person's tabs (README "Part 26"): a claim (this instance has `tabs` of
   * the person's tabs, another holds the upstream) goes to every instance, the claims of
   * {@link CLAIMS_EVERY_MS} in one message; while this instance is in a storm ({@link storming}) they
   * wait, so no upstream moves while the api answers a storm's identity calls (README "Part 30").
   */
  private claimLease(personId: number, tabs: number): void {
    this.claims.set(personId, tabs);
    this.claimsTimer ??= setTimeout(() => this.sendClaims(), CLAIMS_EVERY_MS);
  }

  /** The claims gathered, unless this instance is in a storm: then they wait (and gather) until it is over. */
  private sendClaims(): void {
    if (storming(this.load())) {
      this.claimsTimer = setTimeout(() => this.sendClaims(), CLAIMS_BUSY_RETRY_MS);
      return;
    }
    this.claimsTimer = null;
    const pairs = [...this.claims].flat();
    this.claims.clear();
    this.ctx.io.serverSideEmit('leaseClaims', pairs);
  }

  /** Another instance's claims: each held upstream with fewer of the person's tabs here is handed over. */
  takeClaims(pairs: number[]): void {
    for (let i = 0; i + 1 < pairs.length; i += 2) this.hubs.get(pairs[i])?.considerClaim(pairs[i + 1]);
  }

  private leaseFreed(personId: number): void {
    this.freed.push(personId);
    this.freedTimer ??= setImmediate(() => {
      this.freedTimer = null;
      this.ctx.io.serverSideEmit('leaseFreed', this.freed.splice(0));
    });
  }

  /** Another instance handed these persons' upstreams over: those with tabs here take them. */
  takeFreed(personIds: number[]): void {
    for (const personId of personIds) this.hubs.get(personId)?.takeFreedLease();
  }

  /**
   * A person's access changed (the `access` push reached the upstream this instance holds): the
   * other instances are told through the adapter, and each updates its own tabs of the person.
   */
  async accessChanged(personId: number, event: AccessEvent): Promise<void> {
    if (this.ctx.clustered) this.ctx.io.serverSideEmit('accessChanged', personId, event);
    await this.applyAccessChange(personId, event);
  }

  /** This instance's part of an access change (also called for another instance's 'accessChanged'). */
  applyAccessChange(personId: number, event: AccessEvent): Promise<void> {
    return applyAccessChange(this.ctx.io, this.ctx.identities, this.ctx.logger, personId, event).catch((err: Error) =>
      this.ctx.logger.error({ personId, err: err.message }, 'access change failed'),
    );
  }

  /**
   * A fan-out frame (issue 31): the push's event is made once, and each listed person's hub here
   * takes its numbered copy (a person whose upstream this instance no longer holds is skipped:
   * the upstream that replaces it resumes after the last push delivered).
   */
  fanOut(message: UpstreamMessage, pairs: number[]): void {
    this.ctx.metrics.fanOutFrames.inc();
    const event = prepareEvent(message);
    for (let i = 0; i < pairs.length; i += 2) this.hubs.get(pairs[i])?.deliverFannedOut(message, pairs[i + 1], event);
  }

  /** A revoked token is forgotten here and, through the adapter, on every other instance. */
  forgetToken(token: string): void {
    this.ctx.identities.forget(token);
    if (this.ctx.clustered) this.ctx.io.serverSideEmit('forgetToken', tokenHash(token));
  }

  get(personId: number): PersonHub {
    let hub = this.hubs.get(personId);
    if (!hub) {
      hub = new PersonHub(personId, this.ctx);
      this.hubs.set(personId, hub);
    }
    return hub;
  }

  find(personId: number): PersonHub | undefined {
    return this.hubs.get(personId);
  }

  /** Upstream connections open from this instance (the gateway_upstream_connections gauge). */
  openUpstreams(): number {
    let n = 0;
    for (const hub of this.hubs.values()) if (hub.hasOpenUpstream) n++;
    return n;
  }

  /** A token was revoked through this instance (logout): tell and drop its tabs everywhere. */
  async revokeToken(personId: number, token: string, kind: SessionEvent['kind']): Promise<void> {
    const hub = this.hubs.get(personId);
    if (hub) return hub.revoke(token, kind);
    // No hub here: the tabs (and the upstream, which the api closes with 4001) are elsewhere.
    this.forgetToken(token);
    const room = rooms.token(token);
    emitLive(this.ctx.io.to(room), { topic: 'session', kind, channelType: 3001, payload: { reason: kind } });
    this.ctx.io.in(room).disconnectSockets();
  }

  /** Shutdown: close every upstream and give up every lease. */
  disposeAll(): void {
    if (this.claimsTimer) clearTimeout(this.claimsTimer);
    if (this.arrivalsTimer) clearInterval(this.arrivalsTimer);
    if (this.freedTimer) clearImmediate(this.freedTimer);
    this.claimsTimer = this.freedTimer = null;
    for (const hub of [...this.hubs.values()]) hub.dispose();
  }
}
