import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigate, type NavigateFunction } from 'react-router-dom';
import { useListController, type ListController, type ListQuery, type ListResult } from '../hooks/useListController';

afterEach(cleanup);

interface Row {
  id: number;
  name: string;
  status: number;
}
const FILTERS = { q: '', from: '', to: '' };
type F = typeof FILTERS;

/** An in-memory data source that records every query with its abort signal. */
function memorySource(rows: Row[]) {
  const calls: { query: ListQuery<F>; signal: AbortSignal }[] = [];
  const fetchList = async (query: ListQuery<F>, signal: AbortSignal): Promise<ListResult<Row>> => {
    calls.push({ query, signal });
    const matching = rows.filter(
      (r) => (!query.status || r.status === query.status) && (!query.filters.q || r.name.includes(query.filters.q)),
    );
    return { list: matching.slice((query.page - 1) * query.limit, query.page * query.limit), total: matching.length };
  };
  return { rows, calls, fetchList };
}

/** A data source whose answers the test releases one by one. */
function heldSource() {
  const calls: { query: ListQuery<F>; signal: AbortSignal; answer: (r: ListResult<Row>) => void }[] = [];
  const fetchList = (query: ListQuery<F>, signal: AbortSignal) =>
    new Promise<ListResult<Row>>((answer) => calls.push({ query, signal, answer }));
  return { calls, fetchList };
}

const rowsOf = (n: number, status = 1): Row[] =>
  Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `row ${i + 1}`, status }));

let list: ListController<Row, F>;
let navigate: NavigateFunction;

type FetchList = (q: ListQuery<F>, signal: AbortSignal) => Promise<ListResult<Row>>;

function Harness({ fetchList, reloadKey }: { fetchList: FetchList; reloadKey?: number }) {
  list = useListController<Row, F>({ filters: FILTERS, fetchList, reloadKey });
  navigate = useNavigate();
  const { search } = useLocation();
  return (
    <>
      <output data-testid="url">{search}</output>
      <output data-testid="rows">{list.data?.list.map((r) => r.name).join(',') ?? ''}</output>
    </>
  );
}

function renderAt(url: string, fetchList: FetchList, reloadKey?: number) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Harness fetchList={fetchList} reloadKey={reloadKey} />
    </MemoryRouter>,
  );
}
const url = () => new URLSearchParams(screen.getByTestId('url').textContent ?? '');
const shownRows = () => screen.getByTestId('rows').textContent;

describe('list controller', () => {
  it('when a pasted link holds tab, filters, page, size and open record, then the list asks for exactly that page', async () => {
    const source = memorySource(rowsOf(45, 2));
    renderAt('/list?status=2&page=3&limit=20&q=row&from=2026-11-01&to=2026-11-07&open=123&tab=reply', source.fetchList);
    await waitFor(() => expect(shownRows()).toContain('row 41'));
    expect(source.calls.map((c) => c.query)).toEqual([
      { status: 2, page: 3, limit: 20, filters: { q: 'row', from: '2026-11-01', to: '2026-11-07' } },
    ]);
    expect(list).toMatchObject({ status: 2, page: 3, limit: 20, open: 123, tab: 'reply', hasFilters: true });
    expect(list.draft).toEqual({ q: 'row', from: '2026-11-01', to: '2026-11-07' });
  });

  it('when the URL holds nonsense, then SPEC §9 defaults apply (page 1, limit 10, sizes 10/20/50/100)', async () => {
    const source = memorySource(rowsOf(3));
    renderAt('/list?page=-2&limit=33&status=x&open=abc', source.fetchList);
    await waitFor(() => expect(source.calls).toHaveLength(1));
    expect(source.calls[0].query).toMatchObject({ status: 0, page: 1, limit: 10 });
    expect(list.open).toBeNull();
  });

  it('when filters are typed, then nothing is asked until they are applied, from page 1, into the URL', async () => {
    const source = memorySource(rowsOf(30));
    renderAt('/list?page=2', source.fetchList);
    await waitFor(() => expect(shownRows()).toContain('row 11'));
    act(() => list.setDraft({ q: 'row 2' }));
    expect(url().get('q')).toBeNull();
    expect(source.calls).toHaveLength(1);
    act(() => void list.applyFilters());
    await waitFor(() => expect(url().get('q')).toBe('row 2'));
    expect(url().get('page')).toBeNull();
    await waitFor(() => expect(source.calls.at(-1)!.query).toMatchObject({ page: 1, filters: { q: 'row 2' } }));
    // Searching again with the same filters fetches fresh rows.
    const before = source.calls.length;
    act(() => void list.applyFilters());
    await waitFor(() => expect(source.calls).toHaveLength(before + 1));
  });

  it('when a refused draft is applied, then the URL and the list stay as they were', async () => {
    const source = memorySource(rowsOf(3));
    const refuse = (q: ListQuery<F>, s: AbortSignal) => source.fetchList(q, s);
    function Refusing() {
      list = useListController<Row, F>({
        filters: FILTERS,
        fetchList: refuse,
        validateFilters: (d) => !d.from || !!d.to,
      });
      return <output data-testid="url">{useLocation().search}</output>;
    }
    render(
      <MemoryRouter initialEntries={['/list']}>
        <Refusing />
      </MemoryRouter>,
    );
    await waitFor(() => expect(source.calls).toHaveLength(1));
    act(() => list.setDraft({ from: '2026-11-01' }));
    let applied = true;
    act(() => void (applied = list.applyFilters()));
    expect(applied).toBe(false);
    expect(screen.getByTestId('url').textContent).toBe('');
  });

  it('when the page changes several times within 10 ms, then only the last choice is navigated to and fetched', async () => {
    const source = memorySource(rowsOf(95));
    renderAt('/list', source.fetchList);
    await waitFor(() => expect(source.calls).toHaveLength(1));
    act(() => {
      list.changePage(2, 10);
      list.changePage(3, 10);
      list.changePage(4, 20);
    });
    expect(url().get('page')).toBeNull();
    await waitFor(() => expect(url().get('page')).toBe('4'));
    expect(url().get('limit')).toBe('20');
    await waitFor(() => expect(shownRows()).toContain('row 61'));
    expect(source.calls.map((c) => c.query.page)).toEqual([1, 4]);
  });

  it('when the state changes while a page is loading, then that request is aborted and its late answer ignored', async () => {
    const source = heldSource();
    renderAt('/list', source.fetchList);
    await waitFor(() => expect(source.calls).toHaveLength(1));
    act(() => list.setStatus(2));
    await waitFor(() => expect(source.calls).toHaveLength(2));
    expect(source.calls[0].signal.aborted).toBe(true);
    expect(source.calls[1].signal.aborted).toBe(false);
    await act(async () => source.calls[1].answer({ list: [{ id: 9, name: 'processing one', status: 2 }], total: 1 }));
    await act(async () => source.calls[0].answer({ list: [{ id: 1, name: 'stale', status: 1 }], total: 1 }));
    expect(shownRows()).toBe('processing one');
  });

  it('when the last row of the last page is deleted, then the list steps back a page', async () => {
    const source = memorySource(rowsOf(21));
    renderAt('/list?page=3', source.fetchList);
    await waitFor(() => expect(shownRows()).toBe('row 21'));
    source.rows.pop();
    act(() => list.reload());
    await waitFor(() => expect(url().get('page')).toBe('2'));
    await waitFor(() => expect(shownRows()).toContain('row 20'));
    expect(list.page).toBe(2);
  });

  it('when the reload key changes (a live event), then the same page is fetched again', async () => {
    const source = memorySource(rowsOf(5));
    const view = renderAt('/list', source.fetchList, 1);
    await waitFor(() => expect(source.calls).toHaveLength(1));
    source.rows.unshift({ id: 99, name: 'new one', status: 1 });
    view.rerender(
      <MemoryRouter initialEntries={['/list']}>
        <Harness fetchList={source.fetchList} reloadKey={2} />
      </MemoryRouter>,
    );
    await waitFor(() => expect(shownRows()).toContain('new one'));
    expect(source.calls).toHaveLength(2);
  });

  it('when a record opens, then the URL says which, and going back closes it and restores the filters', async () => {
    const source = memorySource(rowsOf(5));
    renderAt('/list?q=row', source.fetchList);
    await waitFor(() => expect(source.calls).toHaveLength(1));
    act(() => list.openRecord(4));
    await waitFor(() => expect(url().get('open')).toBe('4'));
    act(() => void list.setDraft({ q: 'row 1' }));
    act(() => void list.applyFilters());
    await waitFor(() => expect(url().get('q')).toBe('row 1'));
    act(() => navigate(-1));
    await waitFor(() => expect(url().get('q')).toBe('row'));
    expect(list.draft.q).toBe('row');
    expect(list.open).toBe(4);
    act(() => navigate(-1));
    await waitFor(() => expect(url().get('open')).toBeNull());
  });

  it('when a status tab link is built, then it carries the filters and size but starts at page 1 with nothing open', async () => {
    const source = memorySource(rowsOf(5));
    renderAt('/list?status=1&page=2&limit=20&q=lift&open=7', source.fetchList);
    await waitFor(() => expect(source.calls).toHaveLength(1));
    const link = new URLSearchParams(list.linkTo({ status: 3, page: 1, open: null, tab: null }));
    expect(Object.fromEntries(link)).toEqual({ status: '3', limit: '20', q: 'lift' });
    act(() => list.clearFilters());
    await waitFor(() => expect(url().get('q')).toBeNull());
    expect(list.hasFilters).toBe(false);
  });
});
