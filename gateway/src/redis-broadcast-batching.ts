import type { Redis } from 'ioredis';
import { Adapter, type BroadcastOptions, type Room, type Session } from 'socket.io-adapter';

/** The stream entry of a batch (socket.io-adapter's own message types end at 13; others ignore it). */
export const BROADCAST_BATCH = 100;
const BROADCAST = '3';
/**
 * At most this many broadcasts in one entry: the streams adapter trims the stream to ~10,000
 * entries, so Redis keeps at most ~10,000 × this many packets (and no more than the recovery
 * window's, see `trim`).
 */
export const MAX_BROADCASTS_PER_ENTRY = 100;
/** How often the stream is trimmed to the recovery window. */
const TRIM_EVERY_MS = 5_000;
/** Entries read per XRANGE while a tab's session is restored. */
const RESTORE_PAGE = 1000;
/** At most this many pages (as the streams adapter: a stream growing faster than it is read ends somewhere). */
const RESTORE_MAX_PAGES = 100;

interface Packet {
  type: number;
  data: unknown[];
  id?: number;
  nsp?: string;
}
interface WireOptions {
  rooms: Room[];
  except: Room[];
  flags?: BroadcastOptions['flags'];
}
interface ClusterMessage {
  type: number;
  uid?: string;
  nsp?: string;
  data?: unknown;
}
/** What this reaches into of @socket.io/redis-streams-adapter's adapter (a ClusterAdapter). */
interface StreamsAdapter {
  uid: string;
  nsp: { name: string };
  broadcast(packet: Packet, opts: BroadcastOptions): Promise<void> | void;
  onMessage(message: ClusterMessage, offset?: string): void;
  onRawMessage(raw: { uid?: string }, offset: string): void;
  doPublish(message: ClusterMessage): Promise<string>;
  publishAndReturnOffset(message: ClusterMessage): Promise<string>;
  addOffsetIfNecessary(packet: Packet, opts: BroadcastOptions, offset: string): void;
  restoreSession(pid: string, offset: string): Promise<Session | null>;
}

/**
 * One stream entry per turn of the event loop for the gateway's broadcasts on Redis (issue 31,
 * tenth pass). The streams adapter writes one `XADD` per broadcast and emits to this instance's
 * tabs only when Redis has answered it: a message to a group of 500 was 500 entries (each
 * encoded, written, stored, trimmed, read back by every instance and decoded) on top of the 2,000
 * background events a second. Here the broadcasts made until the end of the turn (`setImmediate`)
 * go as one entry `{ broadcasts: [[packet, opts], …] }` of type {@link BROADCAST_BATCH} (at most
 * {@link MAX_BROADCASTS_PER_ENTRY} each); when
 * Redis answers, each is emitted to this instance's tabs in the order made, and every instance
 * reading the entry does the same for its own tabs.
 *
 * Connection-state recovery is kept per packet: packet `j` of entry `id` carries the offset
 * `id:j`, and a tab coming back with it gets the rest of that entry and everything after it
 * that was for its rooms (plain offsets `id` of single entries are still understood). Any other
 * message (joins, server-side emits, acks) first sends the waiting batch, so the stream keeps the
 * order they were made in; so does a snapshot save (`flush`, see snapshot-store.ts): a save never
 * reaches Redis before the event it counts. A gateway of an older version ignores batch entries:
 * every instance of a deployment must run this one (or all `GATEWAY_REDIS_BATCH=0`).
 */
export class RedisBroadcastBatching {
  private readonly queues = new Map<StreamsAdapter, [Packet, BroadcastOptions][]>();
  private flushing: NodeJS.Immediate | null = null;
  private trimmedAt = 0;

  constructor(
    private readonly redis: Redis,
    private readonly streamName: string,
    /** How long a tab may be away and recover (socket.io's maxDisconnectionDuration): older entries are trimmed. */
    private readonly windowMs: number,
  ) {}

  /** Wraps the streams adapter's factory (`createAdapter(...)`), as socket.io takes it. */
  wrap<T>(factory: T): T {
    const Base = factory as unknown as new (nsp: unknown) => StreamsAdapter;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the factory is called by socket.io with `new`
    const self = this;
    return function batched(nsp: unknown) {
      const adapter = new Base(nsp);
      self.attach(adapter);
      return adapter;
    } as unknown as T;
  }

  /** Sends every waiting batch now (one XADD per namespace). */
  flush(): void {
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = null;
    for (const adapter of [...this.queues.keys()]) this.send(adapter);
  }

  private attach(adapter: StreamsAdapter): void {
    const broadcast = adapter.broadcast.bind(adapter);
    const onMessage = adapter.onMessage.bind(adapter);
    const doPublish = adapter.doPublish.bind(adapter);
    const restoreSession = adapter.restoreSession.bind(adapter);
    const onRawMessage = adapter.onRawMessage.bind(adapter);

    // Every instance reads its own entries back from the stream; the adapter decodes each (a
    // JSON.parse of the whole batch) before it drops it as its own: dropped before the decode.
    adapter.onRawMessage = (raw, offset) => {
      if (raw.uid !== adapter.uid) onRawMessage(raw, offset);
    };

    adapter.broadcast = (packet, opts) => {
      if (opts.flags?.local) return broadcast(packet, opts);
      let queue = this.queues.get(adapter);
      if (!queue) this.queues.set(adapter, (queue = []));
      queue.push([packet, opts]);
      if (queue.length >= MAX_BROADCASTS_PER_ENTRY) this.send(adapter);
      else this.flushing ??= setImmediate(() => this.flush());
    };
    adapter.doPublish = (message) => {
      if (message.type !== BROADCAST_BATCH) this.send(adapter);
      return doPublish(message);
    };
    adapter.onMessage = (message, offset) => {
      if (message.type !== BROADCAST_BATCH) return onMessage(message, offset);
      if (message.uid === adapter.uid || message.nsp !== adapter.nsp.name) return;
      const { broadcasts } = message.data as { broadcasts: [Packet, WireOptions][] };
      broadcasts.forEach(([packet, wire], j) => {
        const opts = fromWire(wire);
        if (offset !== undefined) adapter.addOffsetIfNecessary(packet, opts, `${offset}:${j}`);
        Adapter.prototype.broadcast.call(adapter, packet, opts);
      });
    };
    adapter.restoreSession = async (pid, offset) => {
      const at = /^([0-9]+-[0-9]+)(?::([0-9]+))?$/.exec(offset);
      if (!at) return Promise.reject(new Error('invalid offset'));
      // The session itself (and that the entry is still in the stream) as the streams adapter reads
      // them; what the tab missed is read here, batches included.
      const session = await restoreSession(pid, at[1]);
      if (!session) return session;
      session.missedPackets = await this.missedSince(
        adapter,
        session.rooms,
        at[1],
        at[2] === undefined ? null : Number(at[2]),
      );
      return session;
    };
  }

  private send(adapter: StreamsAdapter): void {
    const queue = this.queues.get(adapter);
    if (!queue || queue.length === 0) return;
    this.queues.delete(adapter);
    const message: ClusterMessage = {
      type: BROADCAST_BATCH,
      data: { broadcasts: queue.map(([packet, opts]) => [packet, toWire(opts)]) },
    };
    const emit = (offset: string | null) =>
      queue.forEach(([packet, opts], j) => {
        if (offset) adapter.addOffsetIfNecessary(packet, opts, `${offset}:${j}`);
        Adapter.prototype.broadcast.call(adapter, packet as never, opts);
      });
    // As the streams adapter does when Redis fails: this instance's tabs get the events all the same.
    adapter.publishAndReturnOffset(message).then(emit, () => emit(null));
    this.trim();
  }

  /**
   * Entries older than the recovery window are of no use to a tab coming back: dropped (their
   * entries are larger than the streams adapter's, which trims only by count).
   */
  private trim(): void {
    const now = Date.now();
    if (now - this.trimmedAt < TRIM_EVERY_MS) return;
    this.trimmedAt = now;
    this.redis.xtrim(this.streamName, 'MINID', '~', String(now - this.windowMs)).catch(() => undefined);
  }

  /**
   * The packets for these rooms after offset `id` (`seen`: the index in that batch entry the tab
   * saw last; null: it saw the whole entry), oldest first, each with its own offset.
   */
  private async missedSince(
    adapter: StreamsAdapter,
    rooms: Room[],
    id: string,
    seen: number | null,
  ): Promise<unknown[][]> {
    const missed: unknown[][] = [];
    const take = (entryId: string, fields: string[], from: number) => {
      const entry: Record<string, string> = {};
      for (let i = 0; i + 1 < fields.length; i += 2) entry[fields[i]] = fields[i + 1];
      if (entry.nsp !== adapter.nsp.name || !entry.data) return;
      if (entry.type === BROADCAST) {
        if (from > 0) return;
        const { packet, opts } = JSON.parse(entry.data) as { packet: Packet; opts: WireOptions };
        if (isFor(rooms, opts)) missed.push([...packet.data, entryId]);
      } else if (entry.type === String(BROADCAST_BATCH)) {
        const { broadcasts } = JSON.parse(entry.data) as { broadcasts: [Packet, WireOptions][] };
        broadcasts.forEach(([packet, opts], j) => {
          if (j >= from && isFor(rooms, opts)) missed.push([...packet.data, `${entryId}:${j}`]);
        });
      }
    };
    if (seen !== null) {
      for (const [entryId, fields] of await this.redis.xrange(this.streamName, id, id)) take(entryId, fields, seen + 1);
    }
    let after = id;
    for (let page = 0; page < RESTORE_MAX_PAGES; page++) {
      const entries = await this.redis.xrange(this.streamName, `(${after}`, '+', 'COUNT', RESTORE_PAGE);
      for (const [entryId, fields] of entries) {
        take(entryId, fields, 0);
        after = entryId;
      }
      if (entries.length < RESTORE_PAGE) break;
    }
    return missed;
  }
}

function toWire(opts: BroadcastOptions): WireOptions {
  return { rooms: [...opts.rooms], except: [...(opts.except ?? [])], flags: opts.flags };
}

function fromWire(opts: WireOptions): BroadcastOptions {
  return { rooms: new Set(opts.rooms), except: new Set(opts.except), flags: opts.flags };
}

/** As the streams adapter decides whether a stored packet was for a session's rooms. */
function isFor(rooms: Room[], opts: WireOptions): boolean {
  const included = opts.rooms.length === 0 || rooms.some((r) => opts.rooms.includes(r));
  return included && rooms.every((r) => !opts.except.includes(r));
}
