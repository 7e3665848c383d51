import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import '../../i18n/i18n';
import { ListScreen } from '../components/ListScreen';
import { useListController } from '../hooks/useListController';

afterEach(cleanup);

interface Row {
  id: number;
  name: string;
}
const FILTERS = { q: '' };

function Screen({ rows }: { rows: Row[] }) {
  const list = useListController<Row, typeof FILTERS>({
    filters: FILTERS,
    fetchList: async ({ filters }) => {
      const list = rows.filter((r) => r.name.includes(filters.q));
      return { list, total: list.length };
    },
  });
  return (
    <>
      <output data-testid="url">{useLocation().search}</output>
      <ListScreen
        list={list}
        columns={[{ key: 'name', header: 'Name', cell: (r) => r.name }]}
        rowKey={(r) => r.id}
        statusTabs={[
          { value: 0, label: 'All', count: rows.length },
          { value: 1, label: 'Open', count: 1, highlight: true },
        ]}
        filters={
          <input aria-label="Keyword" value={list.draft.q} onChange={(e) => list.setDraft({ q: e.target.value })} />
        }
      />
    </>
  );
}

const renderAt = (url: string, rows: Row[]) =>
  render(
    <MemoryRouter initialEntries={[url]}>
      <Screen rows={rows} />
    </MemoryRouter>,
  );

describe('list screen', () => {
  it('when a list has no rows and no filters, then it says there is nothing yet and offers nothing to clear', async () => {
    renderAt('/list', []);
    const empty = await screen.findByTestId('empty-placeholder');
    expect(empty.textContent).toContain('Nothing here yet');
    expect(screen.queryByTestId('clear-filters')).toBeNull();
    expect(screen.queryByTestId('list-pagination')).toBeNull();
  });

  it('when filters match nothing, then it says so, and "clear filters" empties them and shows the rows', async () => {
    renderAt('/list?q=zzz', [{ id: 1, name: 'Lift broken' }]);
    const empty = await screen.findByTestId('empty-placeholder');
    expect(empty.textContent).toContain('No records match your filters');
    fireEvent.click(screen.getByTestId('clear-filters'));
    await screen.findByText('Lift broken');
    expect(screen.getByTestId('url').textContent).toBe('');
    expect((screen.getByLabelText('Keyword') as HTMLInputElement).value).toBe('');
  });

  it('when status tabs are shown, then they are links that carry the filters and mark the current one', async () => {
    renderAt('/list?q=Lift&page=2', [{ id: 1, name: 'Lift broken' }]);
    await screen.findByTestId('status-tab-1');
    const open = screen.getByTestId('status-tab-1');
    expect(open.tagName).toBe('A');
    expect(open.getAttribute('href')).toBe('/list?status=1&q=Lift');
    expect(screen.getByTestId('status-tab-0').getAttribute('aria-current')).toBe('page');
    expect(screen.getByTestId('status-count-1').textContent).toBe('1');
    fireEvent.change(screen.getByLabelText('Keyword'), { target: { value: 'Pipe' } });
    fireEvent.click(screen.getByTestId('search'));
    await waitFor(() => expect(screen.getByTestId('url').textContent).toBe('?q=Pipe'));
  });
});
