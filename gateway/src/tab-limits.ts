import type { SubscribeAck } from '@pm/shared';
import type { GatewayServer, TabSocket } from './gateway-io';
import { pickLanguage, translate, type Language } from './locale-messages';
import type { GatewayMetrics } from './metrics';

type Connection = TabSocket['conn'];

/** How many tabs and events the gateway accepts (README, "Configuration"). */
export interface TabLimits {
  /** Tabs (socket.io connections) one person may have open on this gateway instance. */
  tabsPerPerson: number;
  /** Connections from one address that are not (yet) a signed-in tab: handshakes in progress or refused. */
  unauthenticatedPerAddress: number;
  /** Events (subscribe, unsubscribe) a tab may send per second on average… */
  eventsPerSecond: number;
  /** …and at once after a quiet moment. */
  eventBurst: number;
  /** Refused events in a row after which the tab is disconnected. */
  refusalsBeforeDisconnect: number;
}

export const DEFAULT_TAB_LIMITS: TabLimits = {
  tabsPerPerson: 50,
  unauthenticatedPerAddress: 100,
  eventsPerSecond: 5,
  eventBurst: 20,
  refusalsBeforeDisconnect: 50,
};

/** A `connect_error` for the tab: the message in its language, `data.code` 429 as in HTTP. */
function tooMany(lang: Language, key: string, count: number): Error & { data: { code: number } } {
  return Object.assign(new Error(translate(lang, key).replace('{{count}}', String(count))), { data: { code: 429 } });
}

function handshakeLanguage(socket: TabSocket): Language {
  return pickLanguage(
    socket.handshake.auth?.lang ?? socket.handshake.headers.lang,
    socket.handshake.headers['accept-language'],
  );
}

/** The ack of an event refused for its rate: nothing subscribed, and why (`error.code` 429). */
export type RefusedAck = SubscribeAck & { error: { code: 429; msg: string } };

/**
 * Limits that keep one person or one address from exhausting the gateway: tabs per person,
 * unauthenticated connections per address (both refused at the handshake with a translated
 * `connect_error`, `data.code` 429) and a token bucket per tab for the events it sends.
 * Well-behaved tabs never meet them; the socket.io protocol of DESIGN §3 is unchanged below them.
 */
export class TabLimiter {
  /** Connections per address that are not yet (or never became) a signed-in tab… */
  private readonly unauthenticated = new Map<string, number>();
  /** …and those connections themselves. */
  private readonly pending = new WeakSet<Connection>();
  /** Tabs per person on this instance, by socket id. */
  private readonly tabs = new Map<number, Set<string>>();

  constructor(
    private readonly limits: TabLimits,
    private readonly metrics: GatewayMetrics,
  ) {}

  /** Counts the connections of `io`; call before any other middleware is added. */
  attach(io: GatewayServer): void {
    io.engine.on('connection', (conn: Connection) => {
      this.pending.add(conn);
      this.unauthenticated.set(conn.remoteAddress, (this.unauthenticated.get(conn.remoteAddress) ?? 0) + 1);
      conn.once('close', () => this.settle(conn));
    });
    io.use((socket, next) => {
      const address = socket.conn.remoteAddress;
      if ((this.unauthenticated.get(address) ?? 0) <= this.limits.unauthenticatedPerAddress) return next();
      this.refuse(socket, 'address');
      next(tooMany(handshakeLanguage(socket), 'errors.tooManyConnections', this.limits.unauthenticatedPerAddress));
    });
  }

  /** The last handshake middleware: the person is known, their tabs are counted. */
  readonly admitTab = (socket: TabSocket, next: (err?: Error) => void): void => {
    const tabs = this.tabs.get(socket.data.personId);
    if (tabs && tabs.size >= this.limits.tabsPerPerson && !tabs.has(socket.id)) {
      this.refuse(socket, 'tabs');
      return next(tooMany(socket.data.lang, 'errors.tooManyTabs', this.limits.tabsPerPerson));
    }
    this.track(socket);
    next();
  };

  /** A connected tab: counted (also when it skipped the middlewares to recover) and its events limited. */
  readonly watchTab = (socket: TabSocket): void => {
    this.settle(socket.conn);
    this.track(socket);
    this.limitEvents(socket);
  };

  /** The connection became a tab, or closed: it no longer counts as unauthenticated. */
  private settle(conn: Connection): void {
    if (!this.pending.delete(conn)) return;
    const left = (this.unauthenticated.get(conn.remoteAddress) ?? 1) - 1;
    if (left > 0) this.unauthenticated.set(conn.remoteAddress, left);
    else this.unauthenticated.delete(conn.remoteAddress);
  }

  private track(socket: TabSocket): void {
    const { personId } = socket.data;
    const tabs = this.tabs.get(personId) ?? new Set<string>();
    if (tabs.has(socket.id)) return;
    tabs.add(socket.id);
    this.tabs.set(personId, tabs);
    const forget = () => {
      tabs.delete(socket.id);
      if (tabs.size === 0 && this.tabs.get(personId) === tabs) this.tabs.delete(personId);
    };
    socket.once('disconnect', forget);
    // A handshake that never completes (the client left) has no 'disconnect'.
    socket.conn.once('close', forget);
  }

  /** A refused handshake's connection is closed once the `connect_error` is sent: no descriptor is kept. */
  private refuse(socket: TabSocket, reason: 'address' | 'tabs'): void {
    this.metrics.tabRefusals.inc({ reason });
    setImmediate(() => socket.conn.close());
  }

  /**
   * Token bucket over the events a tab sends. Beyond it the event is not handled and its ack
   * answers a `RefusedAck`; after `refusalsBeforeDisconnect` refusals in a row the tab is
   * disconnected (a flood, not a burst).
   */
  private limitEvents(socket: TabSocket): void {
    const { eventsPerSecond, eventBurst, refusalsBeforeDisconnect } = this.limits;
    let tokens = eventBurst;
    let filledAt = performance.now();
    let refusalsInARow = 0;
    socket.use((event, next) => {
      const now = performance.now();
      tokens = Math.min(eventBurst, tokens + ((now - filledAt) / 1000) * eventsPerSecond);
      filledAt = now;
      if (tokens >= 1) {
        tokens -= 1;
        refusalsInARow = 0;
        return next();
      }
      this.metrics.tabRefusals.inc({ reason: 'events' });
      const ack: unknown = event[event.length - 1];
      if (typeof ack === 'function') {
        const refused: RefusedAck = {
          topics: [],
          refused: [],
          error: { code: 429, msg: translate(socket.data.lang, 'errors.tooManyEvents') },
        };
        ack(refused);
      }
      if (++refusalsInARow >= refusalsBeforeDisconnect) {
        this.metrics.tabRefusals.inc({ reason: 'disconnected' });
        socket.disconnect(true);
      }
    });
  }
}
