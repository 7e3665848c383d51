import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelection } from '../../buildings/hooks/useSelection';
import { confirm } from '../../ui/states/confirms';
import { showToast } from '../../ui/states/toasts';
import { useListController, type ListResult } from './useListController';

const KEYWORD = { q: '' };

export interface KeywordListOptions<Row, Rec> {
  /** One page for a keyword (undefined: none) from the typed data-access layer. */
  fetchPage: (
    query: { page: number; limit: number; keyword?: string },
    signal: AbortSignal,
  ) => Promise<ListResult<Row>>;
  /** The record `?open=` names, for the screen's edit dialog; an id the api refuses closes it again. */
  fetchRecord?: (id: number, signal: AbortSignal) => Promise<Rec>;
  /** Deletes rows by id (the api's batch delete). */
  deleteRows?: (ids: number[]) => Promise<unknown>;
}

/**
 * A list searched by one keyword (`?q=`), with what its screens repeat around it: the paging of
 * {@link useListController}, the rows selected across pages, the record `?open=` names, and delete
 * (of one row or the selected ones) after the person confirms. After a change the selection is
 * cleared and the page reloaded (`changed`).
 */
export function useKeywordList<Row, Rec = Row>(options: KeywordListOptions<Row, Rec>) {
  const { t } = useTranslation();
  const selection = useSelection();
  const latest = useRef(options);
  latest.current = options;
  const list = useListController<Row, typeof KEYWORD>({
    filters: KEYWORD,
    fetchList: ({ page, limit, filters }, signal) =>
      latest.current.fetchPage({ page, limit, keyword: filters.q || undefined }, signal),
  });
  const [record, setRecord] = useState<Rec | null>(null);
  const { open, closeRecord, reload } = list;

  useEffect(() => {
    const fetchRecord = latest.current.fetchRecord;
    if (open === null || !fetchRecord) {
      setRecord(null);
      return;
    }
    const abort = new AbortController();
    fetchRecord(open, abort.signal).then(setRecord, () => closeRecord());
    return () => abort.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the open id only
  }, [open]);

  const { clear } = selection;
  const changed = useCallback(() => {
    clear();
    reload();
  }, [clear, reload]);

  /**
   * Deletes `ids` once the person confirms `question`, then says `done`; none selected: "Select at
   * least one item". A refusal is told by the data-access layer (e.g. still in use).
   */
  const remove = async (ids: number[], question: string, done: string) => {
    const deleteRows = latest.current.deleteRows;
    if (!deleteRows) return;
    if (ids.length === 0) {
      showToast('error', t('toast.selectAtLeastOne'));
      return;
    }
    if (!(await confirm(question))) return;
    try {
      await deleteRows(ids);
      showToast('success', done);
      changed();
    } catch {
      // told by the data-access layer
    }
  };

  return { list, selection, record, changed, remove };
}
