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
   * How long an instance waits, at most, for the tabs it closed to be counted again somewhere before it
   * moves more (ms). They come back after socket.io's reconnection delay (0.5–1.5 s for the first try),
   * longer than a round: deciding before they land would count them nowhere, lower the fair share and
   * move too many, which the other instance would then move back.
   */
  landingMs: number;
}

export const DEFAULT_REBALANCE: RebalanceOptions = {
  intervalMs: 2_000,
  slack: 0.1,
  maxPerTick: 400,
  landingMs: 10_000,
};

/** Tabs moved and not yet counted again: the total all instances held when they moved, and until when to wait. */
export interface Landing {
  total: number;
  until: number;
}

/** Whether the tabs of the last move are still on their way (the instances' total is below the total before it). */
export function stillLanding(landing: Landing | null, total: number, now: number): boolean {
  return landing !== null && total < landing.total && now < landing.until;
}

interface Seen {
  tabs: number;
  at: number;
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
    const loop = () => {
      this.timer = setTimeout(() => {
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
    await this.redis.hset(this.key, this.instanceId, JSON.stringify({ tabs: local, at: now } satisfies Seen));
    const seen = await this.redis.hgetall(this.key);
    const counts: number[] = [];
    const gone: string[] = [];
    for (const [id, raw] of Object.entries(seen)) {
      let entry: Seen | null = null;
      try {
        entry = JSON.parse(raw) as Seen;
      } catch {
        entry = null;
      }
      // An instance that has not spoken for three rounds is gone (killed): its tabs are elsewhere now.
      if (!entry || now - entry.at > 3 * this.options.intervalMs) gone.push(id);
      else counts.push(id === this.instanceId ? local : entry.tabs);
    }
    if (gone.length > 0) await this.redis.hdel(this.key, ...gone);
    const total = counts.reduce((sum, n) => sum + n, 0);
    if (stillLanding(this.landing, total, now)) return 0;
    this.landing = null;
    const move = tabsToMove(local, counts, this.options);
    if (move === 0) return 0;
    const picked = pickTabs(sockets.values(), move);
    this.logger.info(
      { tabs: local, instances: counts.length, moving: picked.length },
      'rebalance: moving tabs to other instances',
    );
    // The transport closes as a network drop does: the tab comes back by itself and recovers its session.
    for (const socket of picked) socket.conn.close();
    this.metrics.tabsMoved.inc(picked.length);
    this.landing = { total, until: now + this.options.landingMs };
    return picked.length;
  }
}
