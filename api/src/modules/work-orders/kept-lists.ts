import { COMPLAINT, EVENT_ORDER, type WorkKind } from '@pm/shared';
import { keptAnswer } from '../../http/kept-mark';
import type { TenantScope } from '../../http/caller';
import type { WorkFilter } from './work-filter';

/**
 * The tables a list page reads (work-orders.repository.ts `listWork`): the rows, their counters
 * (work_total, written by the rows' triggers: a write to the rows is seen for it too), the reporter
 * (name, avatar; and the keyword's name match), the house (unit, floor, block, car space, shop),
 * and the estate's time zone (the day filters).
 */
export const LIST_READS: ReadonlySet<string> = new Set([
  COMPLAINT.sql.table,
  EVENT_ORDER.sql.table,
  'work_total',
  'person',
  'unit',
  'floor',
  'block',
  'car_space',
  'shop',
  'housing_estate',
]);

/** How long a kept page is trusted at most: only bounds a change made past the api (as kept-by-id.ts's 30 s). */
const KEEP_MS = 30_000;

/** A list page's answer (shared `listPage`): its rows are PostgreSQL's JSON text. */
export type ListAnswer = object;

interface Kept {
  answer: ListAnswer;
  until: number;
}

/** A read of a page on its way: kept only if no write dropped the pages meanwhile. */
export type ListLoad = number;

/** The page asked for: its filters and where it starts. */
export interface PageQuery {
  filter: WorkFilter;
  page: number;
  limit: number;
}

/**
 * Pages of the complaint and work-order lists (`POST /complain/query/list`, `/eventOrder/query/list`),
 * kept in the api process (issue 34, part 15): many staff open the same default first page, and
 * each cost a statement of eight index probes per row.
 *
 * Key: kind, company, estate (the caller's data scope: the list shows their tenant's rows and
 * nothing else of them — not their role, which the route checks on every call before asking
 * here) and the query normalised (a filter left out, empty or 0 is the same filter: none).
 *
 * Never stale, coarsely, as KeptById: ANY committed write to a table a page reads (LIST_READS)
 * drops EVERY kept page, in this process at the write's commit (db/write-watch.ts) and in the
 * others through the bus's 'kept' envelope. A read that a drop overtook is not kept. Bounded
 * (least recently used out first), 30 s at most.
 */
export class KeptLists {
  private readonly kept = new Map<string, Kept>();
  /** Reads of a page on their way, by key, in this generation (dropped with the pages). */
  private readonly loading = new Map<string, Promise<ListAnswer>>();
  private generation = 0;
  hits = 0;
  misses = 0;

  /** `max` pages at most; 0 = keep none (API_KEEP_LISTS=0). */
  constructor(readonly max: number) {}

  /** The page's key: every value that changes its answer, a filter that means "none" always written the same. */
  static key(k: WorkKind, tenant: TenantScope, q: PageQuery): string {
    const f = q.filter;
    // Every filter, by name: a filter added to WorkFilter and not here fails the type check.
    const filters = {
      status: f.status || 0,
      type: (k.hasType && f.type) || 0,
      houseType: f.houseType || 0,
      keyword: f.keyword || '',
      startTime: f.startTime || '',
      endTime: f.endTime || '',
    } satisfies Record<keyof WorkFilter, unknown>;
    return JSON.stringify([k.kind, tenant.companyId, tenant.housingEstateId, q.page, q.limit, filters]);
  }

  /** The kept page, if any (and counted as a hit or a miss). */
  get(key: string): ListAnswer | undefined {
    if (this.max === 0) return undefined;
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

  /** Before reading a page: the generation its answer is kept under. */
  begin(): ListLoad {
    return this.generation;
  }

  /** After reading it: kept unless a write dropped the pages since `begin` (then it may be older than the write). */
  end<T extends ListAnswer>(load: ListLoad, key: string, answer: T): T {
    if (this.max === 0 || load !== this.generation) return answer;
    // Marked: its envelope and compressed bytes are made once per language (kept-answer.ts).
    keptAnswer(answer);
    this.kept.set(key, { answer, until: Date.now() + KEEP_MS });
    if (this.kept.size > this.max) this.kept.delete(this.kept.keys().next().value!);
    return answer;
  }

  /**
   * The page: kept, or read by `read` — once for all the callers asking for it at the same time
   * (many staff open the same default page: after a drop, each would read it again on its own).
   * A caller asking after a drop never joins a read begun before it (the reads are dropped too),
   * so the writer's next read, and anyone's after the commit, shows the write.
   */
  async load<T extends ListAnswer>(key: string, read: () => Promise<T>): Promise<T> {
    const hit = this.get(key);
    if (hit) return hit as T;
    if (this.max === 0) return read();
    const joined = this.loading.get(key);
    if (joined) return joined as Promise<T>;
    const load = this.begin();
    const reading = read().then((answer) => this.end(load, key, answer));
    this.loading.set(key, reading);
    const done = () => {
      if (this.loading.get(key) === reading) this.loading.delete(key);
    };
    reading.then(done, done);
    return reading;
  }

  /** Whether a write to these tables changes what a list page may show. */
  static concerns(tables: ReadonlySet<string>): boolean {
    for (const t of tables) if (LIST_READS.has(t)) return true;
    return false;
  }

  /** Drops every kept page, and makes the reads on their way not kept. */
  dropAll(): void {
    this.generation++;
    this.kept.clear();
    this.loading.clear();
  }

  /** Kept pages (tests). */
  size(): number {
    return this.kept.size;
  }
}

/** API_KEEP_LISTS: how many list pages are kept (default 2,000; 0 = none). */
export function keepListsFromEnv(value: string | undefined): number {
  if (value === undefined || value === '') return 2_000;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`API_KEEP_LISTS must be a whole number ≥ 0, not "${value}"`);
  return n;
}
