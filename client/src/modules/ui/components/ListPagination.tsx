import { useEffect, useId, useState } from 'react';
import { Pagination } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { NARROW_WIDTH_PX, PAGE_SIZES } from '@pm/shared';
import { pageCount } from '../utils/pagination';

interface Props {
  total: number;
  page: number;
  limit: number;
  /** A page or page-size choice; the list controller debounces it (SPEC §9, 10 ms). */
  onChange: (page: number, limit: number) => void;
  sizes?: readonly number[];
  /** The name of this pager for screen readers, when a screen shows more than one (e.g. a list behind a dialog). */
  label?: string;
}

function useNarrow(): boolean {
  const query = `(max-width: ${NARROW_WIDTH_PX}px)`;
  const [narrow, setNarrow] = useState(() => typeof window !== 'undefined' && !!window.matchMedia?.(query).matches);
  useEffect(() => {
    const mq = window.matchMedia?.(query);
    if (!mq) return;
    const on = () => setNarrow(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, [query]);
  return narrow;
}

/**
 * List pagination (SPEC §9): sizes 10/20/50/100, hidden when there is nothing, and at 880 px
 * or less only the previous/next steps without the page-number list. Every label is translated.
 */
export function ListPagination({ total, page, limit, onChange, sizes = PAGE_SIZES, label }: Props) {
  const { t } = useTranslation();
  const narrow = useNarrow();
  const sizeId = useId();
  if (total <= 0) return null;
  const pages = pageCount(total, limit);
  return (
    <div className={`list-pagination${narrow ? ' narrow' : ''}`} data-testid="list-pagination">
      <span className="pagination-total">{t('common.total', { count: total })}</span>
      <label htmlFor={sizeId} className="visually-hidden">
        {t('common.pageSize')}
      </label>
      <select
        id={sizeId}
        className="ui compact selection dropdown page-size"
        data-testid="page-size"
        value={limit}
        onChange={(e) => onChange(1, Number(e.target.value))}
      >
        {sizes.map((s) => (
          <option key={s} value={s}>
            {t('common.perPage', { count: s })}
          </option>
        ))}
      </select>
      <Pagination
        size="mini"
        aria-label={label ?? t('common.pagination')}
        activePage={Math.min(page, pages)}
        totalPages={pages}
        firstItem={null}
        lastItem={null}
        prevItem={{ 'aria-label': t('common.previousPage'), content: '⟨' }}
        nextItem={{ 'aria-label': t('common.nextPage'), content: '⟩' }}
        ellipsisItem={narrow ? null : { 'aria-label': t('common.morePages'), content: '…' }}
        siblingRange={narrow ? 0 : 1}
        boundaryRange={narrow ? 0 : 1}
        pageItem={narrow ? null : undefined}
        onPageChange={(_, d) => onChange(Number(d.activePage), limit)}
      />
      {narrow && <span className="pagination-narrow-page">{`${Math.min(page, pages)} / ${pages}`}</span>}
    </div>
  );
}
