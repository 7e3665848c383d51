import type { UpstreamMessage } from '@pm/shared';
import type { JournalEntry } from './push-journal';

/** `{"channelType":…}` + the push's sequence number, without parsing the text again. */
export function withPushSeq(text: string, seq: number): string {
  return `${text.slice(0, -1)},"pushSeq":${seq}}`;
}

/** Reads the journal (PushJournal.after). */
export type JournalReader = (afterSeq: number, limit: number) => Promise<JournalEntry[]>;

const BATCH = 500;

/**
 * The pushes of one upstream connection that asked to resume (`?after=N`): sent in the order of
 * the person's sequence, each once. What the journal holds after the starting point goes first;
 * a push that arrives with a number further on than the next one (another api instance's push
 * still on its way, or lost in a crash) is preceded by the ones in between, read from the journal.
 */
export class ResumeStream {
  private readonly queue: { seq: number; text: string }[] = [];
  private busy = false;
  private catchUp = true;
  private closed = false;

  constructor(
    /** The number of the last push the peer has; the stream continues after it. */
    private lastSent: number,
    private readonly read: JournalReader,
    private readonly send: (text: string) => void,
    /** The journal could not be read: the connection should be dropped (the peer resumes again). */
    private readonly fail: (err: unknown) => void,
  ) {}

  /** Sends what the journal holds after the starting point, then what arrived live meanwhile. */
  start(): void {
    void this.drain();
  }

  /** A live push for this connection's person. */
  offer(seq: number, text: string): void {
    if (this.closed) return;
    this.queue.push({ seq, text });
    void this.drain();
  }

  /**
   * Whether push `seq` may leave by another way than this stream (a gateway's fan-out frame, see
   * ConnectionRegistry.deliver) without breaking its order: the stream has sent everything before it
   * and holds nothing back. The caller then sends it and calls {@link sentElsewhere}.
   */
  canHandOver(seq: number): boolean {
    return !this.closed && !this.busy && !this.catchUp && this.queue.length === 0 && seq === this.lastSent + 1;
  }

  /** Push `seq` left by another way (after {@link canHandOver}): the stream continues after it. */
  sentElsewhere(seq: number): void {
    this.lastSent = seq;
  }

  close(): void {
    this.closed = true;
    this.queue.length = 0;
  }

  private async drain(): Promise<void> {
    if (this.busy || this.closed) return;
    this.busy = true;
    try {
      if (this.catchUp) {
        this.catchUp = false;
        await this.fill(Number.POSITIVE_INFINITY);
      }
      while (this.queue.length > 0 && !this.closed) {
        const next = this.queue.shift() as { seq: number; text: string };
        if (next.seq <= this.lastSent) continue; // already sent (from the journal)
        if (next.seq > this.lastSent + 1) await this.fill(next.seq - 1);
        if (this.closed) return;
        this.send(next.text);
        this.lastSent = next.seq;
      }
    } catch (err) {
      this.close();
      this.fail(err);
    } finally {
      this.busy = false;
    }
  }

  /** Sends the journal's pushes after the last one sent, up to `upTo`. */
  private async fill(upTo: number): Promise<void> {
    for (;;) {
      const entries = await this.read(this.lastSent, BATCH);
      for (const e of entries) {
        if (e.seq > upTo || this.closed) return;
        this.send(withPushSeq(JSON.stringify(e.message satisfies UpstreamMessage), e.seq));
        this.lastSent = e.seq;
      }
      if (entries.length < BATCH) return;
    }
  }
}
