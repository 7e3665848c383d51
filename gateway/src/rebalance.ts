import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { GatewayServer, TabSocket } from './gateway-io';
import type { GatewayMetrics } from './metrics';

/**
 * A gateway that joins others on Redis takes its share of the tabs (issue 34, README "Part 13").
 *
 * Tabs connect once and stay: a gateway started beside a busy one would get only the tabs opened
 * after it, and the first would keep the thousands it had. So each instance writes its number of
 * tabs into one Redis hash every `intervalMs`; one holding more than its share (all live instances'
 * tabs over their number, plus `slack`) closes the connections of some of its persons (all the tabs
 * of a person, so that the person's upstream moves with them), at most `maxPerTick` tabs each
 * interval and half of its excess at a time, since the tabs it closed are counted elsewhere only
 * once they are back. A closed connection is, to the tab, a lost one: socket.io connects again by
 * itself after its reconnection delay, the load balancer in front (least connections, or any
 * balancer that spreads new connections) gives it the instance with fewer, and connection-state
 * recovery through Redis restores its session there with the events it missed. Nothing in the
 * console changes. Off unless asked for (`rebalance`, GATEWAY_REBALANCE=1): it moves tabs between
 * instances behind a balancer, which a deployment chooses.
 */
export interface RebalanceOptions {
  /** How often an instance says how many tabs it holds and looks at the others (ms). */
  intervalMs: number;
  /** Share above the fair one an instance may hold before it moves tabs (0.1 = 10 %). */
  slack: number;
  /** Tabs one instance closes at most per interval (their reconnects are a small storm of their own). */
  maxPerTick: number;
  /**
   * How long an instance waits, at most, for the tabs it closed to be counted again before it moves
   * more (ms). It waits while the other instances' count has not grown by the tabs it moved (README
   * "Part 22"): they come back after the console's reconnect pause and, in a storm, after a wait in
   * a queue; deciding before they land would count them nowhere, lower the fair share and move too
   * many, which Part 17's fixed 10 s did (2,856 moved into a gateway that had not accepted them).
   * The bound is for tabs that do not come back at all (closed meanwhile).
   */
  landingMs: number;
  /** An instance with more handshakes in flight than this (connections not yet a tab) is busy: no tabs move while it is. */
  busyHandshakes: number;
  /**
   * An instance taking more new connections a second than this is busy: a storm's tabs are coming
   * back (the balancer's queue, which the gateway cannot see, is long), or moved tabs are landing.
   */
  busyArrivalsPerSecond: number;
  /** An instance whose rounds start this late (its event loop held: a storm's handshakes, a long accept queue) is busy, ms. */
  busyLateMs: number;
}

export const DEFAULT_REBALANCE: RebalanceOptions = {
  intervalMs: 2_000,
  slack: 0.1,
  maxPerTick: 400,
  landingMs: 120_000,
  busyHandshakes: 50,
  busyArrivalsPerSecond: 50,
  busyLateMs: 500,
};

/**
 * Tabs moved and not yet counted again: the total all instances held when they moved, what the
 * other instances held then, how many moved, and until when to wait at most.
 */
export interface Landing {
  total: number;
  others: number;
  moved: number;
  until: number;
}

/**
 * Whether the tabs of the last move are still on their way: the instances' total is below the total
 * before it and the other instances have not grown by (nine tenths of) the moved tabs. No fixed wait:
 * tabs held up in a queue keep the mover waiting, up to `until`.
 */
export function stillLanding(landing: Landing | null, total: number, others: number, now: number): boolean {
  if (landing === null || total >= landing.total) return false;
  if (others - landing.others >= Math.ceil(landing.moved * 0.9)) return false;
  return now < landing.until;
}

/** What each instance writes into the hash every round. */
export interface Seen {
  tabs: number;
  at: number;
  /** Connections opened and not yet a tab (the engine's clients less the namespace's sockets). */
  handshakes?: number;
  /** How late its last round started (ms): its event loop's wait. */
  lateMs?: number;
  /** New connections a second over its last round. */
  arrivalsPerSecond?: number;
}

/**
 * Whether an instance is too busy to be given tabs (or to send them): many handshakes in flight,
 * its rounds late, or not heard from for more than a round and a half (its event loop held).
 */
export function isBusy(seen: Seen, now: number, options: RebalanceOptions): boolean {
  return (
    (seen.handshakes ?? 0) > options.busyHandshakes ||
    (seen.lateMs ?? 0) > options.busyLateMs ||
    (seen.arrivalsPerSecond ?? 0) > options.busyArrivalsPerSecond ||
    now - seen.at > 1.5 * options.intervalMs
  );
}

/** The tabs to close to move `count` tabs (about): whole persons, those with the fewest tabs first. */
export function pickTabs(sockets: Iterable<TabSocket>, count: number): TabSocket[] {
  const byPerson = new Map<number, TabSocket[]>();
  for (const s of sockets) {
    const personId = s.data?.personId;
    if (personId === undefined) continue;
    const list = byPerson.get(personId);
    if (list) list.push(s);
    else byPerson.set(personId, [s]);
  }
  const picked: TabSocket[] = [];
  for (const tabs of [...byPerson.values()].sort((a, b) => a.length - b.length)) {
    if (picked.length >= count) break;
    picked.push(...tabs);
  }
  return picked;
}

/** How many tabs an instance holding `local` of these should move now (0 when within its share). */
export function tabsToMove(local: number, all: number[], options: RebalanceOptions): number {
  if (all.length < 2) return 0;
  const fair = all.reduce((sum, n) => sum + n, 0) / all.length;
  if (local <= Math.ceil(fair * (1 + options.slack))) return 0;
  return Math.min(options.maxPerTick, Math.ceil((local - fair) / 2));
}

export class Rebalancer {
  private timer: NodeJS.Timeout | null = null;
  private landing: Landing | null = null;
  /** How late the current round started (ms). */
  private lateMs = 0;
  /** New connections since the last round, and when that was. */
  private arrivals = 0;
  private lastRoundAt = Date.now();
  private readonly key: string;
  private readonly options: RebalanceOptions;

  constructor(
    private readonly io: GatewayServer,
    private readonly redis: Redis,
    prefix: string,
    private readonly instanceId: string,
    private readonly logger: Logger,
    private readonly metrics: GatewayMetrics,
    options: Partial<RebalanceOptions> = {},
  ) {
    this.key = `${prefix}gateways`;
    this.options = { ...DEFAULT_REBALANCE, ...options };
  }

  start(): void {
    this.io.engine.on('connection', () => this.arrivals++);
    const loop = () => {
      const due = Date.now() + this.options.intervalMs;
      this.timer = setTimeout(() => {
        this.lateMs = Math.max(0, Date.now() - due);
        this.tick()
          .catch((err: Error) => this.logger.warn({ err: err.message }, 'rebalance: redis not answering'))
          .finally(() => this.timer !== null && loop());
      }, this.options.intervalMs);
      this.timer.unref();
    };
    loop();
  }

  /** Stops, and takes this instance out of the count (its tabs are leaving with it). */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.redis.hdel(this.key, this.instanceId).catch(() => undefined);
  }

  /** One round: say how many tabs this instance holds, and move some when it holds too many. */
  async tick(): Promise<number> {
    const sockets = this.io.of('/').sockets;
    const local = sockets.size;
    const now = Date.now();
    const mine: Seen = {
      tabs: local,
      at: now,
      handshakes: Math.max(0, this.io.engine.clientsCount - local),
      lateMs: this.lateMs,
      arrivalsPerSecond: Math.round((this.arrivals * 1000) / Math.max(1, now - this.lastRoundAt)),
    };
    this.arrivals = 0;
    this.lastRoundAt = now;
    await this.redis.hset(this.key, this.instanceId, JSON.stringify(mine));
    const seen = await this.redis.hgetall(this.key);
    const counts: number[] = [];
    const gone: string[] = [];
    const busy: string[] = [];
    let others = 0;
    for (const [id, raw] of Object.entries(seen)) {
      let entry: Seen | null = null;
      try {
        entry = JSON.parse(raw) as Seen;
      } catch {
        entry = null;
      }
      // An instance that has not spoken for three rounds is gone (killed): its tabs are elsewhere now.
      if (!entry || now - entry.at > 3 * this.options.intervalMs) {
        gone.push(id);
        continue;
      }
      const self = id === this.instanceId;
      counts.push(self ? local : entry.tabs);
      if (!self) others += entry.tabs;
      if (isBusy(self ? mine : entry, now, this.options)) busy.push(self ? 'this instance' : id);
    }
    if (gone.length > 0) await this.redis.hdel(this.key, ...gone);
    const total = counts.reduce((sum, n) => sum + n, 0);
    if (stillLanding(this.landing, total, others, now)) return 0;
    this.landing = null;
    const move = tabsToMove(local, counts, this.options);
    if (move === 0) return 0;
    // A busy instance (a storm's handshakes, its rounds late) is given no tabs, and a busy one sends
    // none: the tabs would wait in its accept queue past their clients' timeout (Part 17's wedge).
    if (busy.length > 0) {
      this.logger.info({ tabs: local, would: move, busy }, 'rebalance: waiting, an instance is busy');
      return 0;
    }
    const picked = pickTabs(sockets.values(), move);
    this.logger.info(
      { tabs: local, instances: counts.length, moving: picked.length },
      'rebalance: moving tabs to other instances',
    );
    // The transport closes as a network drop does: the tab comes back by itself and recovers its session.
    for (const socket of picked) socket.conn.close();
    this.metrics.tabsMoved.inc(picked.length);
    this.landing = { total, others, moved: picked.length, until: now + this.options.landingMs };
    return picked.length;
  }
}
