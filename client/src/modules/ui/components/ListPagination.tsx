import { useEffect, useRef, useState } from 'react';
import { Dropdown, Pagination } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { NARROW_WIDTH_PX, PAGE_CHANGE_DEBOUNCE_MS, PAGE_SIZES } from '@pm/shared';
import { pageCount } from '../utils/pagination';

interface Props {
  total: number;
  page: number;
  limit: number;
  onChange: (page: number, limit: number) => void;
  sizes?: readonly number[];
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
 * or less only the previous/next steps without the page-number list.
 */
export function ListPagination({ total, page, limit, onChange, sizes = PAGE_SIZES }: Props) {
  const { t } = useTranslation();
  const narrow = useNarrow();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  if (total <= 0) return null;

  const change = (p: number, l: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => onChange(p, l), PAGE_CHANGE_DEBOUNCE_MS);
  };
  const pages = pageCount(total, limit);
  return (
    <div className={`list-pagination${narrow ? ' narrow' : ''}`} data-testid="list-pagination">
      <span className="pagination-total">{t('common.total', { count: total })}</span>
      <Dropdown
        selection
        compact
        data-testid="page-size"
        value={limit}
        options={sizes.map((s) => ({ key: s, value: s, text: t('common.perPage', { count: s }) }))}
        onChange={(_, d) => change(1, Number(d.value))}
      />
      <Pagination
        size="mini"
        activePage={Math.min(page, pages)}
        totalPages={pages}
        firstItem={null}
        lastItem={null}
        ellipsisItem={narrow ? null : undefined}
        siblingRange={narrow ? 0 : 1}
        boundaryRange={narrow ? 0 : 1}
        pageItem={narrow ? null : undefined}
        onPageChange={(_, d) => change(Number(d.activePage), limit)}
      />
      {narrow && <span className="pagination-narrow-page">{`${Math.min(page, pages)} / ${pages}`}</span>}
    </div>
  );
}
