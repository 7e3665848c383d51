import { randomBytes } from 'node:crypto';
import { Adapter, type BroadcastOptions, type PrivateSessionId, type Room, type Session } from 'socket.io-adapter';

/** Whom a kept packet went to: its one room (the gateway's usual case), or rooms and exceptions. */
type Addressee = Room | { rooms: Room[]; except: Room[] };

type SessionToPersist = Parameters<Adapter['persistSession']>[0];
type StoredSession = SessionToPersist & { disconnectedAt: number };

const EVENT_PACKET = 2;
const NO_ROOMS: ReadonlySet<Room> = new Set();
/** What socket.io expects from an adapter that cannot restore a session (typed as a Session by the package). */
const NOT_RESTORED = Promise.resolve(null) as unknown as Promise<Session>;

/**
 * Connection-state recovery for a gateway without Redis (with Redis the streams adapter keeps the
 * log in Redis). socket.io's own in-memory log keeps every broadcast's objects (data array,
 * payload, room sets) for the whole window: at thousands of events a second that is megabytes a
 * second promoted to the old generation, and the major collections it causes pause the event loop
 * for tens of milliseconds. This log keeps each packet as one string, finds a tab's offset by
 * arithmetic instead of a scan, and drops expired packets as it goes.
 */
export class CompactRecoveryAdapter extends Adapter {
  /** Offsets from another process (a restarted gateway) never match. */
  private readonly bootId = randomBytes(4).toString('hex');
  private readonly windowMs: number;
  private readonly sessions = new Map<PrivateSessionId, StoredSession>();
  // The kept packets, oldest first, as three parallel arrays (no object per packet): to whom, the
  // JSON of the packet's data (event name, payload, offset), and when. Packet i has seq firstSeq + i.
  private addressees: Addressee[] = [];
  private jsons: string[] = [];
  private emittedAt: number[] = [];
  private firstSeq = 0;
  private readonly sweeper: NodeJS.Timeout;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- socket.io's Namespace, typed `any` by the adapter package
  constructor(nsp: any) {
    super(nsp);
    this.windowMs = (
      nsp.server.opts.connectionStateRecovery as { maxDisconnectionDuration: number }
    ).maxDisconnectionDuration;
    this.sweeper = setInterval(() => this.sweep(), Math.min(this.windowMs, 10_000));
    this.sweeper.unref();
  }

  override broadcast(packet: { type: number; data: unknown[]; id?: number }, opts: BroadcastOptions): void {
    // As socket.io does: events without an ack that are not volatile can be missed and recovered.
    if (packet.type === EVENT_PACKET && packet.id === undefined && opts.flags?.volatile === undefined) {
      const seq = this.firstSeq + this.jsons.length;
      // The offset travels at the end of the data; the client sends the last one it saw when it reconnects.
      packet.data.push(`${this.bootId}.${seq}`);
      const except = opts.except ?? NO_ROOMS;
      this.addressees.push(
        opts.rooms.size === 1 && except.size === 0
          ? opts.rooms.values().next().value!
          : { rooms: [...opts.rooms], except: [...except] },
      );
      this.jsons.push(JSON.stringify(packet.data));
      this.emittedAt.push(Date.now());
    }
    super.broadcast(packet, opts);
  }

  override persistSession(session: SessionToPersist): void {
    this.sessions.set(session.pid, { ...session, disconnectedAt: Date.now() });
  }

  override restoreSession(pid: PrivateSessionId, offset: string): Promise<Session> {
    const session = this.sessions.get(pid);
    this.sessions.delete(pid);
    const [boot, seqText] = offset.split('.');
    const index = Number(seqText) - this.firstSeq;
    // The session, or the last packet the tab saw, may be too old (or from before a restart): the
    // tab then starts afresh, with a new snapshot.
    if (
      !session ||
      session.disconnectedAt < Date.now() - this.windowMs ||
      boot !== this.bootId ||
      !Number.isInteger(index) ||
      index < 0 ||
      index >= this.jsons.length
    )
      return NOT_RESTORED;
    const rooms = new Set(session.rooms);
    const missedPackets: unknown[][] = [];
    for (let i = index + 1; i < this.jsons.length; i++) {
      if (isFor(this.addressees[i], rooms)) missedPackets.push(JSON.parse(this.jsons[i]) as unknown[]);
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
    let expired = 0;
    while (expired < this.emittedAt.length && this.emittedAt[expired] < threshold) expired++;
    if (expired === 0) return;
    this.addressees = this.addressees.slice(expired);
    this.jsons = this.jsons.slice(expired);
    this.emittedAt = this.emittedAt.slice(expired);
    this.firstSeq += expired;
  }
}

/** Whether a tab in these rooms was among a packet's addressees (as socket.io decides it). */
function isFor(to: Addressee, rooms: Set<Room>): boolean {
  if (typeof to !== 'object') return rooms.has(to);
  const addressed = to.rooms.length === 0 || to.rooms.some((r) => rooms.has(r));
  return addressed && !to.except.some((r) => rooms.has(r));
}
