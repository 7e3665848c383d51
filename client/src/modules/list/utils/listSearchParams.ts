import { DEFAULT_LIMIT, DEFAULT_PAGE, PAGE_SIZES } from '@pm/shared';

/** A list's filters as the URL holds them: every field a string, '' when not set. */
export type ListFilters = Record<string, string>;

/** Everything a list screen shows that a link must reproduce. */
export interface ListState<F extends ListFilters> {
  /** Status tab; 0 = all. */
  status: number;
  page: number;
  limit: number;
  filters: F;
  /** Id of the record whose dialog is open. */
  open: number | null;
  /** The open dialog's tab; null = its first. */
  tab: string | null;
}

const KEYS = ['status', 'page', 'limit', 'open', 'tab'] as const;

function positiveInt(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * Reads a list's state from the URL search (e.g.
 * `?status=2&page=3&limit=20&q=lift&from=2026-11-01&to=2026-11-07&open=123`); anything missing
 * or unreadable falls back to the defaults (SPEC §9: page 1, limit 10, sizes 10/20/50/100).
 */
export function readListState<F extends ListFilters>(params: URLSearchParams, defaults: F): ListState<F> {
  const limit = positiveInt(params.get('limit'));
  const filters = { ...defaults };
  for (const key of Object.keys(defaults) as (keyof F & string)[]) {
    const v = params.get(key);
    if (v !== null) filters[key] = v as F[typeof key];
  }
  return {
    status: positiveInt(params.get('status')) ?? 0,
    page: Math.max(DEFAULT_PAGE, positiveInt(params.get('page')) ?? DEFAULT_PAGE),
    limit: limit !== undefined && (PAGE_SIZES as readonly number[]).includes(limit) ? limit : DEFAULT_LIMIT,
    filters,
    open: positiveInt(params.get('open')) || null,
    tab: params.get('tab') || null,
  };
}

/**
 * The URL search of a list state, defaults left out so links stay short; other parameters in
 * `base` are kept.
 */
export function writeListState<F extends ListFilters>(
  state: ListState<F>,
  defaults: F,
  base: URLSearchParams = new URLSearchParams(),
): URLSearchParams {
  const out = new URLSearchParams();
  const set = (key: string, value: string | number | null, fallback: string | number | null) => {
    if (value !== null && value !== '' && value !== fallback) out.set(key, String(value));
  };
  set('status', state.status, 0);
  set('page', state.page, DEFAULT_PAGE);
  set('limit', state.limit, DEFAULT_LIMIT);
  for (const [key, value] of Object.entries(state.filters)) set(key, value.trim(), defaults[key] ?? '');
  set('open', state.open, null);
  set('tab', state.tab, null);
  const own = new Set<string>([...KEYS, ...Object.keys(defaults)]);
  for (const [key, value] of base) if (!own.has(key)) out.append(key, value);
  return out;
}
