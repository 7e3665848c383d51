import { COMPLAINT, EVENT_ORDER, workFilterInEffect, type WorkFilter, type WorkKind } from '@pm/shared';
import { KeptAnswers, keptMaxFromEnv, readsAny } from '../../kept/kept-answers';
import type { TenantScope } from '../../http/caller';
import { PERSON_AND_HOUSE_READS } from './kept-by-id';

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
  ...PERSON_AND_HOUSE_READS,
  'housing_estate',
]);

/** A list page's answer (shared `listPage`): its rows are PostgreSQL's JSON text. */
export type ListAnswer = object;

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
 * others through the bus's 'kept' envelope. The keeping (bounded, 30 s at most, a read overtaken
 * by a drop not kept, one read for concurrent callers, hits and misses) is KeptAnswers'.
 */
export class KeptLists extends KeptAnswers<ListAnswer> {
  /** The page's key: every value that changes its answer, a filter that means "none" always written the same. */
  static key(k: WorkKind, tenant: TenantScope, q: PageQuery): string {
    // The filters in effect (shared workFilterInEffect): in a fixed order, "none" left out.
    const filters = workFilterInEffect(k, q.filter);
    return JSON.stringify([k.kind, tenant.companyId, tenant.housingEstateId, q.page, q.limit, filters]);
  }

  /** Whether a write to these tables changes what a list page may show. */
  static concerns(tables: ReadonlySet<string>): boolean {
    return readsAny(LIST_READS, tables);
  }
}

/** API_KEEP_LISTS: how many list pages are kept (default 2,000; 0 = none). */
export function keepListsFromEnv(value: string | undefined): number {
  return keptMaxFromEnv('API_KEEP_LISTS', value, 2_000);
}
