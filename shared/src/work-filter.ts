import type { WorkKind } from './work-kinds';

/**
 * Filters of the complaint and work-order lists (SPEC §2): status, work-order type, keyword, report
 * days, house type. One definition for the console (the list body it sends) and the api (the
 * repository's WHERE, the kept pages' key).
 */
export interface WorkFilter {
  status?: number;
  type?: number;
  keyword?: string;
  startTime?: string;
  endTime?: string;
  houseType?: number;
}

/**
 * The filters that narrow a list, each written one way: a filter left out, empty, blank or 0 means
 * none and is left out (undefined); the keyword trimmed (as the list body's schema trims it);
 * `type` only for a kind that has one (complaints have none). The console sends these; the api's
 * kept pages key on them, so two queries the list answers alike share one kept page.
 */
export function workFilterInEffect(k: Pick<WorkKind, 'hasType'>, f: WorkFilter): WorkFilter {
  // Every filter, by name: a filter added to WorkFilter and not here fails the type check.
  return {
    status: f.status || undefined,
    type: (k.hasType && f.type) || undefined,
    houseType: f.houseType || undefined,
    keyword: f.keyword?.trim() || undefined,
    startTime: f.startTime || undefined,
    endTime: f.endTime || undefined,
  } satisfies Record<keyof WorkFilter, unknown>;
}
