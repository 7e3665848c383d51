import { randomBytes } from 'node:crypto';
import { Adapter, type BroadcastOptions, type PrivateSessionId, type Room, type Session } from 'socket.io-adapter';
import { PacketLog } from './packet-log';

type SessionToPersist = Parameters<Adapter['persistSession']>[0];
type StoredSession = SessionToPersist & { disconnectedAt: number };

const EVENT_PACKET = 2;
interface EventPacket {
  type: number;
  data: unknown[];
  id?: number;
}
interface Encoder {
  encode(packet: EventPacket): unknown[];
}
const NO_ROOMS: ReadonlySet<Room> = new Set();
/** What socket.io expects from an adapter that cannot restore a session (typed as a Session by the package). */
const NOT_RESTORED = Promise.resolve(null) as unknown as Promise<Session>;

/**
 * Connection-state recovery for a gateway without Redis (with Redis the streams adapter keeps the
 * log in Redis). socket.io's own in-memory log keeps every broadcast's objects (data array,
 * payload, room sets) for the whole window: at thousands of events a second that is megabytes a
 * second promoted to the old generation, and the major collections it causes pause the event loop
 * for tens of milliseconds. This adapter keeps the packets in a {@link PacketLog} outside the
 * JavaScript heap, finds a tab's offset by its number, and drops expired packets as it goes.
 */
export class CompactRecoveryAdapter extends Adapter {
  /** Offsets from another process (a restarted gateway) never match. */
  private readonly bootId = randomBytes(4).toString('hex');
  private readonly windowMs: number;
  private readonly sessions = new Map<PrivateSessionId, StoredSession>();
  /** Each packet: to whom (see {@link addressee}) and the JSON of its data (event name, payload, offset). */
  private readonly log = new PacketLog();
  private readonly sweeper: NodeJS.Timeout;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- socket.io's Namespace, typed `any` by the adapter package
  constructor(nsp: any) {
    super(nsp);
    this.windowMs = (
      nsp.server.opts.connectionStateRecovery as { maxDisconnectionDuration: number }
    ).maxDisconnectionDuration;
    this.sweeper = setInterval(() => this.sweep(), Math.min(this.windowMs, 10_000));
    this.sweeper.unref();
    // GATEWAY_ENCODE_ONCE=0 leaves the wire's encoding to socket.io (for comparing; README, issue 31).
    if (process.env.GATEWAY_ENCODE_ONCE !== '0') this.encodeOnce();
  }

  /**
   * socket.io encodes a broadcast's packet again for the wire (a second JSON.stringify of the
   * same data, and a deep scan for binary parts): a logged packet is written from the JSON the log
   * made, as socket.io-parser writes an event packet (its type, the namespace unless "/", a comma,
   * the data's JSON). Logged packets carry no binary parts (the log keeps JSON; the gateway's
   * events come from the api as JSON). Any other packet is encoded by socket.io as before.
   * Reaches into the adapter's encoder (private in its types, the one socket.io gives it).
   */
  private encodeOnce(): void {
    const self = this as unknown as { encoder: Encoder };
    const encoder = self.encoder;
    if (!encoder || (encoder as { replacer?: unknown }).replacer !== undefined) return;
    const wrapped = Object.create(encoder) as Encoder;
    wrapped.encode = (packet: EventPacket & { nsp?: string }) => {
      const json = this.jsonOf.get(packet);
      if (json === undefined) return encoder.encode(packet);
      return [`${packet.type}${packet.nsp && packet.nsp !== '/' ? `${packet.nsp},` : ''}${json}`];
    };
    self.encoder = wrapped;
  }

  /** The JSON of a logged packet's data, made once for the log and the wire (see `encodeOnce`). */
  private readonly jsonOf = new WeakMap<object, string>();

  override broadcast(packet: EventPacket, opts: BroadcastOptions): void {
    // As socket.io does: events without an ack that are not volatile can be missed and recovered.
    if (packet.type === EVENT_PACKET && packet.id === undefined && opts.flags?.volatile === undefined) {
      // The offset travels at the end of the data; the client sends the last one it saw when it reconnects.
      packet.data.push(`${this.bootId}.${this.log.nextSeq}`);
      const json = JSON.stringify(packet.data);
      this.log.append(addressee(opts), json);
      this.jsonOf.set(packet, json);
    }
    super.broadcast(packet, opts);
  }

  /** Memory the kept packets take (outside the JavaScript heap). */
  get keptBytes(): number {
    return this.log.bytesHeld;
  }

  override persistSession(session: SessionToPersist): void {
    this.sessions.set(session.pid, { ...session, disconnectedAt: Date.now() });
  }

  override restoreSession(pid: PrivateSessionId, offset: string): Promise<Session> {
    const session = this.sessions.get(pid);
    this.sessions.delete(pid);
    const [boot, seqText] = offset.split('.');
    const seq = Number(seqText);
    // The session, or the last packet the tab saw, may be too old (or from before a restart): the
    // tab then starts afresh, with a new snapshot.
    if (!session || session.disconnectedAt < Date.now() - this.windowMs || boot !== this.bootId || !this.log.has(seq))
      return NOT_RESTORED;
    const rooms = new Set(session.rooms);
    const missedPackets: unknown[][] = [];
    for (const { to, json } of this.log.after(seq)) {
      if (isFor(to, rooms)) missedPackets.push(JSON.parse(json) as unknown[]);
    }
    const { disconnectedAt: _, ...rest } = session;
    return Promise.resolve({ ...rest, missedPackets });
  }

  override close(): void {
    clearInterval(this.sweeper);
    super.close();
  }

  /** Forgets sessions and packets older than the window. */
  private sweep(): void {
    const threshold = Date.now() - this.windowMs;
    for (const [pid, s] of this.sessions) if (s.disconnectedAt < threshold) this.sessions.delete(pid);
    this.log.dropOlderThan(threshold);
  }
}

/**
 * To whom a packet went, as the log keeps it: its one room (the gateway's usual case), else a JSON
 * object of rooms and exceptions (room names never start with "{").
 */
function addressee(opts: BroadcastOptions): string {
  const except = opts.except ?? NO_ROOMS;
  if (opts.rooms.size === 1 && except.size === 0) return opts.rooms.values().next().value!;
  return JSON.stringify({ rooms: [...opts.rooms], except: [...except] });
}

/** Whether a tab in these rooms was among a packet's addressees (as socket.io decides it). */
function isFor(to: string, rooms: Set<Room>): boolean {
  if (!to.startsWith('{')) return rooms.has(to);
  const { rooms: addressed, except } = JSON.parse(to) as { rooms: Room[]; except: Room[] };
  return (addressed.length === 0 || addressed.some((r) => rooms.has(r))) && !except.some((r) => rooms.has(r));
}
