import { COMPLAINT, EVENT_ORDER, type WorkKind } from '@pm/shared';
import { keptAnswer } from '../../http/kept-mark';
import type { TenantScope } from '../../http/caller';
import type { JsonText } from '../../http/json-text';
import type { EventBus } from '../realtime/event-bus';

/**
 * The tables a complaint's or work order's answer by id reads (work-orders.repository.ts
 * `findWork`): the record, its replies (the count), the persons it names (reporter, who dealt,
 * who completed: names and avatars), and its house (unit, floor, block, car space, shop).
 */
export const BY_ID_READS: ReadonlySet<string> = new Set([
  ...[COMPLAINT, EVENT_ORDER].flatMap((k) => [k.sql.table, k.sql.replyTable]),
  'person',
  'unit',
  'floor',
  'block',
  'car_space',
  'shop',
]);

/**
 * How long a kept answer is trusted at most: every write the api makes drops it at once; this
 * only bounds the life of a change made past the api (by hand in the database), as the token
 * cache's and the kept counters' 30 s do.
 */
const KEEP_MS = 30_000;

interface Kept {
  answer: JsonText;
  until: number;
}

/** A read of a record on its way: kept only if no write dropped the answers meanwhile. */
export type ByIdLoad = number;

/**
 * A complaint's or work order's answer by id (`POST /complain/query/id/{id}`,
 * `/eventOrder/query/id/{id}`), kept in the api process (issue 34): the console reads a record
 * each time its dialog opens, and each read cost a statement of seven joins.
 *
 * Key: kind, id, company and estate. The answer reads nothing of the caller beyond their tenant
 * (not their role or permissions, which the route checks on every call before asking here).
 *
 * Never stale, coarsely: ANY committed write to a table the answer reads (BY_ID_READS) drops
 * EVERY kept answer, of every estate — no tracking of which records a write touched (a person's
 * new name shows in every record naming them; a block renamed, in each of its units'). In this
 * process at the write's commit, before the writer's code after the commit runs (db/write-watch.ts,
 * at the driver, so no module can forget it); in every other api process through the realtime bus
 * (`kind: 'kept'`, NOTIFY on PostgreSQL), published before the write's pushes, so a process hands
 * a record's push to its upstreams only after dropping the answers it kept of it. A read that a
 * drop overtook is not kept (the generation). Bounded (least recently used out first), 30 s at most.
 */
export class KeptById {
  private readonly kept = new Map<string, Kept>();
  private generation = 0;
  hits = 0;
  misses = 0;

  /** `max` answers at most; 0 = keep none (API_KEEP_BY_ID=0). */
  constructor(readonly max: number) {}

  private static key(k: WorkKind, tenant: TenantScope, id: number): string {
    return `${k.kind}:${id}:${tenant.companyId}:${tenant.housingEstateId}`;
  }

  /** The kept answer, if any (and counted as a hit or a miss). */
  get(k: WorkKind, tenant: TenantScope, id: number): JsonText | undefined {
    if (this.max === 0) return undefined;
    const key = KeptById.key(k, tenant, id);
    const entry = this.kept.get(key);
    if (entry === undefined || entry.until <= Date.now()) {
      if (entry) this.kept.delete(key);
      this.misses++;
      return undefined;
    }
    // Least recently used goes first: a hit moves to the end of the map's order.
    this.kept.delete(key);
    this.kept.set(key, entry);
    this.hits++;
    return entry.answer;
  }

  /** Before reading a record: the generation its answer is kept under. */
  begin(): ByIdLoad {
    return this.generation;
  }

  /** After reading it: kept unless a write dropped the answers since `begin` (then it may be older than the write). */
  end(load: ByIdLoad, k: WorkKind, tenant: TenantScope, id: number, answer: JsonText): JsonText {
    if (this.max === 0 || load !== this.generation) return answer;
    keptAnswer(answer);
    this.kept.set(KeptById.key(k, tenant, id), { answer, until: Date.now() + KEEP_MS });
    if (this.kept.size > this.max) this.kept.delete(this.kept.keys().next().value!);
    return answer;
  }

  /** Whether a write to these tables changes what an answer by id may show. */
  static concerns(tables: ReadonlySet<string>): boolean {
    for (const t of tables) if (BY_ID_READS.has(t)) return true;
    return false;
  }

  /** Drops every kept answer, and makes the reads on their way not kept. */
  dropAll(): void {
    this.generation++;
    this.kept.clear();
  }

  /** Kept answers (tests). */
  size(): number {
    return this.kept.size;
  }
}

/** API_KEEP_BY_ID: how many answers by id are kept (default 10,000; 0 = none). */
export function keepByIdFromEnv(value: string | undefined): number {
  if (value === undefined || value === '') return 10_000;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`API_KEEP_BY_ID must be a whole number ≥ 0, not "${value}"`);
  return n;
}

/**
 * The realtime bus, with another process's 'kept' envelope dropping this process's kept answers
 * (its own was dropped at its commit); the envelope concerns only the kept answers and stops here.
 */
export function keptByIdBus(bus: EventBus, kept: Pick<KeptById, 'dropAll'>, origin: string): EventBus {
  return {
    publish: (envelope) => bus.publish(envelope),
    onEnvelope: (handler) =>
      bus.onEnvelope((envelope) => {
        if (envelope.kind !== 'kept') return handler(envelope);
        if (envelope.origin !== origin) kept.dropAll();
      }),
    close: () => bus.close(),
  };
}
