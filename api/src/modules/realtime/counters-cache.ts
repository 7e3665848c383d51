import type { LiveCounters } from '@pm/shared';
import type { Caller } from '../../http/caller';
import type { PersonId } from './event-bus';

/**
 * How long a kept answer is trusted at most: every push drops it at once; this only bounds the
 * life of a change made past the pushes (by hand in the database), as the token cache's 30 s do.
 */
const KEEP_MS = 30_000;

interface Kept {
  counters: LiveCounters;
  until: number;
}

/** A load of the counters on its way: filled into the cache only when nothing dropped it meanwhile. */
export interface CountersLoad {
  readonly personId: string;
  dropped: boolean;
}

/** The same caller's answer: who they are as the counters' parts read it (kind, tenant, permissions). */
const signatures = new WeakMap<ReadonlySet<string>, string>();
function callerKey(caller: Caller): string {
  let perms = signatures.get(caller.perms);
  if (perms === undefined) signatures.set(caller.perms, (perms = [...caller.perms].sort().join(',')));
  return `${caller.kind}:${caller.companyId}:${caller.housingEstateId}:${perms}`;
}

/**
 * The live counters' answers (`GET /realtime/counters`) kept per person in the api process that
 * holds the person's upstream (issue 34): the gateway asks at every upstream open and the tabs
 * after every reconnect, and each answer used to cost a statement of four subqueries.
 *
 * Why it is never stale once an event has reached the person's tabs: every change of a person's
 * counters is a push to that person (that is how the gateway keeps the tabs' counters without
 * asking again; `applyEvent` in shared/src/events.ts), and a push reaches the tabs only through
 * an upstream. An answer is kept and answered only while THIS process holds an upstream of the
 * person, and this process drops the person's answers when the bus hands it a push for them,
 * synchronously, BEFORE the push is written to any upstream (attach-realtime.ts). An upstream
 * opening or closing drops them too (a resuming upstream is sent journaled pushes past the bus).
 * A change committed in this process drops its persons' answers at once, before the bus's round
 * trip, so the writer's next counters call here counts it (publishStamped in attach-realtime.ts).
 * Another api process holding no upstream of the person answers from the database, as before.
 * A load that a drop overtook is not kept. Permissions, tenant and kind are part of the key, so an
 * access change (a new verified caller) never meets an answer made for the old one.
 */
export class CountersCache {
  private readonly kept = new Map<string, Map<string, Kept>>();
  private readonly loading = new Map<string, Set<CountersLoad>>();

  /** `holds(personId)`: whether this process holds an upstream of the person (attachRealtime's registry). */
  constructor(private readonly holds: (personId: string) => boolean) {}

  /** The kept answer for this caller, if any. */
  get(caller: Caller): LiveCounters | undefined {
    const personId = String(caller.personId);
    if (!this.holds(personId)) return undefined;
    const entry = this.kept.get(personId)?.get(callerKey(caller));
    if (!entry) return undefined;
    if (entry.until <= Date.now()) {
      this.kept.get(personId)?.delete(callerKey(caller));
      return undefined;
    }
    return entry.counters;
  }

  /** Starts a load; null when its answer could not be kept (no upstream of the person here). */
  begin(caller: Caller): CountersLoad | null {
    const personId = String(caller.personId);
    if (!this.holds(personId)) return null;
    const load: CountersLoad = { personId, dropped: false };
    let set = this.loading.get(personId);
    if (!set) this.loading.set(personId, (set = new Set()));
    set.add(load);
    return load;
  }

  /** Ends a load: keeps its answer unless a drop came meanwhile (or it failed: `counters` undefined). */
  end(load: CountersLoad, caller: Caller, counters?: LiveCounters): void {
    const set = this.loading.get(load.personId);
    set?.delete(load);
    if (set?.size === 0) this.loading.delete(load.personId);
    if (load.dropped || counters === undefined || !this.holds(load.personId)) return;
    let mine = this.kept.get(load.personId);
    if (!mine) this.kept.set(load.personId, (mine = new Map()));
    mine.set(callerKey(caller), { counters, until: Date.now() + KEEP_MS });
  }

  /** Drops a person's answers and the loads on their way (a push for them, an upstream opened or closed). */
  drop(personId: PersonId): void {
    const id = String(personId);
    this.kept.delete(id);
    for (const load of this.loading.get(id) ?? []) load.dropped = true;
  }

  /** Persons with kept answers (tests). */
  size(): number {
    return this.kept.size;
  }
}
