import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { PAGE_CHANGE_DEBOUNCE_MS } from '@pm/shared';
import { pageCount } from '../../ui/utils/pagination';
import { readListState, writeListState, type ListFilters, type ListState } from '../utils/listSearchParams';

/** What a list screen asks its data source for. */
export interface ListQuery<F extends ListFilters> {
  status: number;
  page: number;
  limit: number;
  filters: F;
}

export interface ListResult<Row> {
  list: Row[];
  total: number;
}

export interface ListControllerOptions<Row, F extends ListFilters> {
  /** The filters with their empty values; the keys are also the URL parameter names. */
  filters: F;
  /** One page from the typed data-access layer (modules/api), aborted through `signal`. */
  fetchList: (query: ListQuery<F>, signal: AbortSignal) => Promise<ListResult<Row>>;
  /** Whenever this changes (e.g. the live counters of the list's kind), the page reloads. */
  reloadKey?: string | number;
  /** Refuses to apply a draft that breaks a rule (the form shows why). */
  validateFilters?: (draft: F) => boolean;
}

export interface ListController<Row, F extends ListFilters> extends ListState<F> {
  /** The filter form's values, applied by `applyFilters`. */
  draft: F;
  /** The current page; null until the first answer. */
  data: ListResult<Row> | null;
  loading: boolean;
  /** Applied filters differ from the empty ones (the empty state then says "no match"). */
  hasFilters: boolean;
  setDraft: (patch: Partial<F>) => void;
  /** Applies the draft from page 1; false when `validateFilters` refused it. */
  applyFilters: () => boolean;
  clearFilters: () => void;
  setStatus: (status: number) => void;
  /** Page or page-size change, debounced (SPEC §9). */
  changePage: (page: number, limit: number) => void;
  reload: () => void;
  openRecord: (id: number) => void;
  closeRecord: () => void;
  /** The URL search of this list with some of its state changed: for links that carry it. */
  linkTo: (patch: Partial<ListState<F>>) => string;
}

/**
 * A list's controller (react-admin's useListController): the state lives in the URL search so
 * reload, back/forward and a pasted link show the same tab, filters, page, size and open
 * record; the page is fetched for that state, the request in flight is aborted when the state
 * changes, a page left empty steps back (SPEC §9), and `reloadKey` reloads on live changes.
 */
export function useListController<Row, F extends ListFilters>(
  options: ListControllerOptions<Row, F>,
): ListController<Row, F> {
  const { search } = useLocation();
  const navigate = useNavigate();
  const defaults = options.filters;
  const defaultsKey = JSON.stringify(defaults);
  const state = useMemo(
    () => readListState(new URLSearchParams(search), JSON.parse(defaultsKey) as F),
    [search, defaultsKey],
  );

  // The latest values for callbacks that run later (debounce timers, answers).
  const latest = useRef({ search, options });
  latest.current = { search, options };

  /** Puts a changed state into the URL; false when nothing changed. */
  const update = useCallback(
    (patch: Partial<ListState<F>>, replace = false) => {
      const params = new URLSearchParams(latest.current.search);
      const defaultsNow = latest.current.options.filters;
      const next = writeListState({ ...readListState(params, defaultsNow), ...patch }, defaultsNow, params);
      const text = next.toString();
      if (text === params.toString()) return false;
      navigate({ search: text ? `?${text}` : '' }, { replace });
      return true;
    },
    [navigate],
  );

  // The filter form follows the applied filters when they change from outside (back, a link).
  const filtersKey = JSON.stringify(state.filters);
  const [draft, setDraftState] = useState<F>(state.filters);
  useEffect(() => setDraftState(JSON.parse(filtersKey) as F), [filtersKey]);

  const [data, setData] = useState<ListResult<Row> | null>(null);
  const [loading, setLoading] = useState(true);
  const [reloads, setReloads] = useState(0);
  const queryKey = JSON.stringify([state.status, state.page, state.limit, state.filters]);

  useEffect(() => {
    const query = JSON.parse(queryKey) as [number, number, number, F];
    const [status, page, limit, filters] = query;
    const abort = new AbortController();
    setLoading(true);
    latest.current.options.fetchList({ status, page, limit, filters }, abort.signal).then(
      (result) => {
        if (abort.signal.aborted) return;
        // A page left empty (its last rows deleted or moved away) steps back (SPEC §9).
        if (result.list.length === 0 && page > 1) {
          update({ page: pageCount(result.total, limit) }, true);
          return;
        }
        setData(result);
        setLoading(false);
      },
      () => {
        // The data-access layer told the person; an aborted request is simply superseded.
        if (!abort.signal.aborted) setLoading(false);
      },
    );
    return () => abort.abort();
  }, [queryKey, options.reloadKey, reloads, update]);

  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const changePage = useCallback(
    (page: number, limit: number) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => update({ page, limit }), PAGE_CHANGE_DEBOUNCE_MS);
    },
    [update],
  );

  const applyFilters = useCallback(() => {
    const { validateFilters } = latest.current.options;
    if (validateFilters && !validateFilters(draft)) return false;
    // Searching again with the same filters fetches again (the person expects fresh rows).
    if (!update({ filters: draft, page: 1 })) setReloads((n) => n + 1);
    return true;
  }, [draft, update]);

  const clearFilters = useCallback(() => {
    const empty = latest.current.options.filters;
    setDraftState(empty);
    update({ filters: empty, page: 1 });
  }, [update]);

  const linkTo = useCallback(
    (patch: Partial<ListState<F>>) => {
      const params = new URLSearchParams(search);
      const text = writeListState({ ...state, ...patch }, defaults, params).toString();
      return text ? `?${text}` : '?';
    },
    [search, state, defaults],
  );

  return {
    ...state,
    draft,
    data,
    loading,
    hasFilters: Object.keys(defaults).some((k) => state.filters[k] !== defaults[k]),
    setDraft: useCallback((patch: Partial<F>) => setDraftState((d) => ({ ...d, ...patch })), []),
    applyFilters,
    clearFilters,
    setStatus: useCallback((status: number) => update({ status, page: 1 }), [update]),
    changePage,
    reload: useCallback(() => setReloads((n) => n + 1), []),
    openRecord: useCallback((id: number) => update({ open: id, tab: null }), [update]),
    closeRecord: useCallback(() => update({ open: null, tab: null }), [update]),
    linkTo,
  };
}
