import { randomBytes } from 'node:crypto';
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
 * go as one entry `{ tag, broadcasts: [[packet, opts], …] }` of type {@link BROADCAST_BATCH} (at
 * most {@link MAX_BROADCASTS_PER_ENTRY} each), and every instance reading the entry emits each to
 * its own tabs in the order made.
 *
 * This instance's own tabs do not wait for Redis (issue 31, thirteenth pass): each broadcast is
 * emitted to them at once, as without Redis, in the order made, with an offset that names its
 * entry before Redis has numbered it: `<id>~<tag>:<j>`, packet `j` of the entry tagged `tag` (this
 * instance's own counter), which Redis adds after entry `<id>` (the newest entry this instance
 * had seen when the batch began). A tab coming back with such an offset, on any instance, has it
 * looked up in the stream after `<id>` (the entry's data begins with its tag) and is then served
 * as with the entry's own offset; an entry Redis never stored (it failed) is not found, and that
 * tab starts afresh with a new snapshot instead of missing something.
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
  private readonly queues = new Map<StreamsAdapter, Batch>();
  private flushing: NodeJS.Immediate | null = null;
  private trimmedAt = 0;
  /** This instance's batches are tagged `<instance>.<n>` (see the offsets above). */
  private readonly instance = randomBytes(6).toString('hex');
  private batches = 0;
  /** The newest entry of the stream this instance has seen (added or read): any entry it adds later comes after it. */
  private lastSeen = '0-0';

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
      this.seen(offset);
      if (raw.uid !== adapter.uid) onRawMessage(raw, offset);
    };

    const recovers = Boolean(
      (adapter.nsp as { server?: { opts?: { connectionStateRecovery?: unknown } } }).server?.opts
        ?.connectionStateRecovery,
    );
    adapter.broadcast = (packet, opts) => {
      if (opts.flags?.local) return broadcast(packet, opts);
      let batch = this.queues.get(adapter);
      if (!batch) {
        batch = { tag: `${this.instance}.${++this.batches}`, after: this.lastSeen, items: [] };
        this.queues.set(adapter, batch);
      }
      const j = batch.items.length;
      batch.items.push([packet, opts]);
      // This instance's tabs now, in the order made (the queued packet stays as it was made: the
      // entry carries no offset, each reader adds its own).
      const local =
        recovers && takesOffset(packet, opts)
          ? { ...packet, data: [...packet.data, `${batch.after}~${batch.tag}:${j}`] }
          : packet;
      Adapter.prototype.broadcast.call(adapter, local as never, opts);
      if (batch.items.length >= MAX_BROADCASTS_PER_ENTRY) this.send(adapter);
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
      let id: string;
      let seen: number | null;
      const at = /^([0-9]+-[0-9]+)(?::([0-9]+))?$/.exec(offset);
      const early = /^([0-9]+-[0-9]+)~([0-9a-f]+\.[0-9]+):([0-9]+)$/.exec(offset);
      if (at) {
        id = at[1];
        seen = at[2] === undefined ? null : Number(at[2]);
      } else if (early) {
        // An offset given before Redis numbered its entry: the entry is found by its tag.
        const found = await this.entryTagged(early[2], early[1]);
        if (!found) return Promise.reject(new Error('session or offset not found'));
        id = found;
        seen = Number(early[3]);
      } else return Promise.reject(new Error('invalid offset'));
      // The session itself (and that the entry is still in the stream) as the streams adapter reads
      // them; what the tab missed is read here, batches included.
      const session = await restoreSession(pid, id);
      if (!session) return session;
      session.missedPackets = await this.missedSince(adapter, session.rooms, id, seen);
      return session;
    };
  }

  private send(adapter: StreamsAdapter): void {
    const batch = this.queues.get(adapter);
    if (!batch || batch.items.length === 0) return;
    this.queues.delete(adapter);
    // The tag first: a tab's early offset is looked up by the beginning of the entry's data.
    const message: ClusterMessage = {
      type: BROADCAST_BATCH,
      data: { tag: batch.tag, broadcasts: batch.items.map(([packet, opts]) => [packet, toWire(opts)]) },
    };
    // This instance's tabs have had the packets (see `broadcast`); if Redis fails, the entry's
    // tag is never found and a tab coming back with one of its offsets starts afresh.
    adapter.publishAndReturnOffset(message).then(
      (id) => this.seen(id),
      () => undefined,
    );
    this.trim();
  }

  /** Notes an entry id of the stream (added by this instance or read from it). */
  private seen(id: string | undefined): void {
    if (id && laterId(id, this.lastSeen)) this.lastSeen = id;
  }

  /** The id of the entry tagged `tag`, added after entry `after`, or null when the stream does not have it. */
  private async entryTagged(tag: string, after: string): Promise<string | null> {
    const head = `{"tag":${JSON.stringify(tag)},`;
    let from = after;
    for (let page = 0; page < RESTORE_MAX_PAGES; page++) {
      const entries = await this.redis.xrange(this.streamName, `(${from}`, '+', 'COUNT', RESTORE_PAGE);
      for (const [entryId, fields] of entries) {
        for (let i = 0; i + 1 < fields.length; i += 2) {
          if (fields[i] === 'data' && fields[i + 1].startsWith(head)) return entryId;
        }
        from = entryId;
      }
      if (entries.length < RESTORE_PAGE) break;
    }
    return null;
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

interface Batch {
  /** `<instance>.<n>`: names the entry before Redis has numbered it. */
  tag: string;
  /** The newest entry this instance had seen when the batch began: Redis adds the batch after it. */
  after: string;
  items: [Packet, BroadcastOptions][];
}

/** As socket.io-adapter's `addOffsetIfNecessary` decides: events without an ack that are not volatile. */
function takesOffset(packet: Packet, opts: BroadcastOptions): boolean {
  return packet.type === 2 && packet.id === undefined && opts.flags?.volatile === undefined;
}

/** Whether stream id `a` ("ms-seq") comes after `b`. */
function laterId(a: string, b: string): boolean {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  return am > bm || (am === bm && as > bs);
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
