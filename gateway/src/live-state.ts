import {
  applyEvent,
  emptySnapshot,
  visibleCounters,
  type CountersChangedEvent,
  type Counters,
  type LiveEvent,
  type LiveSnapshot,
} from '@pm/shared';

export type { Counters };
/** What the upstream's numbered pushes change the state with. */
type PushEvent = LiveEvent | CountersChangedEvent;

/** A reload of the counters in flight: the numbered pushes applied since it was asked for. */
export interface ReloadTicket {
  applied: { seq: number; event: PushEvent }[];
}

/**
 * One person's live counters as the gateway holds them. Events move them the same way the
 * client moves its copy ({@link applyEvent}), so a tab that applied every delta holds exactly
 * what a late tab receives as its snapshot. Every change raises `version`.
 *
 * Pushes are numbered per person by the api (`pushSeq`, its push journal) and counters are
 * loaded as of a number, so a reload never undoes a newer push (issue 14): counters as of N
 * replace the state only once push N has been applied, and the pushes after N that were applied
 * while the reload was on its way are applied again on top of them. A push whose number was
 * already applied (sent again after a reconnect or a takeover) is not applied twice.
 *
 * The counters are the person's as their permissions allow (issue 30): once `restrict` was told
 * them, a topic they do not allow counts nothing, whatever the upstream still pushes, as the
 * api's counters do ({@link visibleCounters}).
 */
export class LiveState {
  private current: LiveSnapshot;
  /** False until the counters were loaded from the api once. */
  loaded = false;
  /** The number of the last push applied; null until the upstream said where its stream starts. */
  pushSeq: number | null;
  private reload: ReloadTicket | null = null;
  /** Counters as of a push not applied yet: they replace the state when it is. */
  private pending: { counters: Counters; asOf: number } | null = null;
  /** The permissions the counters are kept for; null until known (nothing hidden). */
  private perms: ReadonlySet<string> | null = null;

  constructor(start: number | { snapshot: LiveSnapshot; pushSeq: number | null } = 0) {
    if (typeof start === 'number') {
      this.current = { ...emptySnapshot(), version: start };
      this.pushSeq = null;
    } else {
      // Taking over from another gateway instance: its last snapshot and the last push it delivered.
      this.current = start.snapshot;
      this.pushSeq = start.pushSeq;
      this.loaded = true;
    }
  }

  get snapshot(): LiveSnapshot {
    return this.current;
  }

  apply(event: PushEvent): LiveSnapshot {
    this.current = this.visible(applyEvent(this.current, event));
    return this.current;
  }

  /**
   * The person holds these permissions from now on: the counters of topics they no longer allow
   * are zero at once and stay zero. Answers the new snapshot, or null when nothing it shows changed.
   */
  restrict(perms: ReadonlySet<string>): LiveSnapshot | null {
    this.perms = perms;
    const next = visibleCounters(this.current, perms);
    if (JSON.stringify(next) === JSON.stringify(this.current)) return null;
    this.current = { ...next, version: this.current.version + 1 };
    return this.current;
  }

  private visible(snapshot: LiveSnapshot): LiveSnapshot {
    return this.perms ? visibleCounters(snapshot, this.perms) : snapshot;
  }

  /**
   * A push from the upstream: applied unless its number was applied already (then null).
   * `reloaded` is the snapshot of a reload that was waiting for this push, to send after it.
   */
  applyPush(
    event: PushEvent,
    seq: number | undefined,
  ): { snapshot: LiveSnapshot; reloaded: LiveSnapshot | null } | null {
    if (seq === undefined) return { snapshot: this.apply(event), reloaded: null };
    if (this.pushSeq !== null && seq <= this.pushSeq) return null;
    const snapshot = this.apply(event);
    this.pushSeq = seq;
    this.reload?.applied.push({ seq, event });
    const pending = this.pending;
    if (!pending || seq < pending.asOf) return { snapshot, reloaded: null };
    this.pending = null;
    return { snapshot, reloaded: this.replaceAsOf(pending.counters, pending.asOf) };
  }

  /**
   * The upstream's stream continues after push `seq` (the first message of a resuming
   * connection). Anything but the number already applied means the api's journal started over
   * (a restored database): what was waiting for older numbers is dropped.
   */
  streamStartsAfter(seq: number): void {
    if (this.pushSeq === seq) return;
    this.pushSeq = seq;
    this.pending = null;
    this.reload = null;
  }

  /**
   * Starts recording for a reload (it supersedes one still waiting for its pushes); null while
   * the stream's starting point is not known yet.
   */
  beginReload(): ReloadTicket | null {
    if (this.pushSeq === null) return null;
    this.pending = null;
    this.reload = { applied: [] };
    return this.reload;
  }

  /**
   * Counters loaded as of push `asOf`: the new snapshot, or null when they must wait for pushes
   * not applied yet (applyPush answers the snapshot then) or the reload was overtaken.
   */
  finishReload(ticket: ReloadTicket, counters: Counters, asOf: number): LiveSnapshot | null {
    if (ticket !== this.reload) return null;
    if (this.pushSeq === null || asOf > this.pushSeq) {
      this.pending = { counters, asOf };
      return null;
    }
    return this.replaceAsOf(counters, asOf);
  }

  /** The reload failed: stop recording (a later one starts afresh). */
  cancelReload(ticket: ReloadTicket): void {
    if (ticket === this.reload && !this.pending) this.reload = null;
  }

  /** Replaces the counters with what the api reports (reconciliation); the version still moves on. */
  replace(counters: Counters, minVersion = 0): LiveSnapshot {
    this.current = this.visible({ ...counters, version: Math.max(this.current.version, minVersion) + 1 });
    this.loaded = true;
    return this.current;
  }

  /** Counters as of push `asOf`, plus the pushes after it applied meanwhile. */
  private replaceAsOf(counters: Counters, asOf: number): LiveSnapshot {
    const newer = (this.reload?.applied ?? []).filter((a) => a.seq > asOf);
    this.reload = null;
    this.replace(counters);
    for (const a of newer) this.apply(a.event);
    return this.current;
  }
}
