/**
 * The packets a gateway sent in the last minutes, kept so a tab that drops for a moment gets what
 * it missed (connection-state recovery without Redis).
 *
 * At thousands of events a second this log is the largest thing the gateway keeps, so it keeps
 * none of it as JavaScript objects: each packet is written as UTF-8 bytes into large buffers
 * outside the JavaScript heap, its boundaries into typed arrays. The garbage collector then has
 * nothing per packet to copy, promote or mark (kept as strings, the log made every minor
 * collection copy the last second's packets and grew the old generation by about 1 MB a second,
 * whose major collections paused the event loop for tens of milliseconds).
 *
 * Packets are numbered from 0 in the order they were appended and kept in chunks; whole chunks
 * are dropped once their newest packet is older than the window.
 */

/** One kept packet: to whom it went (a room name, or a JSON description) and its JSON. */
export interface LoggedPacket {
  to: string;
  json: string;
}

const CHUNK_PACKETS = 4096;
const CHUNK_BYTES = 1 << 20;

class Chunk {
  count = 0;
  used = 0;
  /** When the newest packet in this chunk was appended. */
  newestAt = 0;
  /** Packet i occupies bytes [starts[i], ends[i]); its first toLengths[i] bytes say to whom. */
  readonly starts = new Uint32Array(CHUNK_PACKETS);
  readonly ends = new Uint32Array(CHUNK_PACKETS);
  readonly toLengths = new Uint32Array(CHUNK_PACKETS);

  constructor(
    readonly firstSeq: number,
    readonly bytes: Buffer,
  ) {}

  fits(byteLength: number): boolean {
    return this.count < CHUNK_PACKETS && this.used + byteLength <= this.bytes.length;
  }

  append(to: string, json: string, at: number): void {
    const start = this.used;
    const toLength = this.bytes.write(to, start);
    this.used = start + toLength + this.bytes.write(json, start + toLength);
    this.starts[this.count] = start;
    this.toLengths[this.count] = toLength;
    this.ends[this.count] = this.used;
    this.count++;
    this.newestAt = at;
  }

  read(i: number): LoggedPacket {
    const split = this.starts[i] + this.toLengths[i];
    return {
      to: this.bytes.toString('utf8', this.starts[i], split),
      json: this.bytes.toString('utf8', split, this.ends[i]),
    };
  }
}

export class PacketLog {
  private chunks: Chunk[] = [];
  private appended = 0;

  /** The number the next appended packet gets. */
  get nextSeq(): number {
    return this.appended;
  }

  /** Keeps a packet; answers its sequence number. */
  append(to: string, json: string, at = Date.now()): number {
    const size = Buffer.byteLength(to) + Buffer.byteLength(json);
    let last = this.chunks.at(-1);
    if (!last || !last.fits(size)) {
      last = new Chunk(this.appended, Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, size)));
      this.chunks.push(last);
    }
    last.append(to, json, at);
    return this.appended++;
  }

  /** Whether packet `seq` is still kept (so a tab that saw it can be told what followed). */
  has(seq: number): boolean {
    const first = this.chunks[0]?.firstSeq ?? this.appended;
    return Number.isInteger(seq) && seq >= first && seq < this.appended;
  }

  /** The kept packets after `seq`, oldest first. */
  *after(seq: number): Generator<LoggedPacket> {
    for (const chunk of this.chunks) {
      for (let i = Math.max(0, seq + 1 - chunk.firstSeq); i < chunk.count; i++) yield chunk.read(i);
    }
  }

  /** Bytes reserved for the kept packets (whole chunks). */
  get bytesHeld(): number {
    return this.chunks.reduce((sum, c) => sum + c.bytes.length, 0);
  }

  /** Forgets the chunks whose packets are all older than `time`. */
  dropOlderThan(time: number): void {
    let expired = 0;
    while (expired < this.chunks.length && this.chunks[expired].newestAt < time) expired++;
    if (expired > 0) this.chunks = this.chunks.slice(expired);
  }
}
