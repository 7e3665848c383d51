import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import '../../i18n/i18n';
import { session } from '../../auth/states/session';
import { defineHouseList, HouseListPage } from '../components/HouseListPage';

// A kind of house that does not exist, written as the config object a new kind would be: the one
// list screen shows its columns and filters, sends its query, and opens its dialogs.

afterEach(cleanup);
beforeEach(() => {
  session.perms = ['locker:view'];
});

interface Locker {
  lockerId: number;
  code: string;
  hallId: number;
  hallName: string;
}
const HALLS = [
  { id: 1, name: 'North hall' },
  { id: 2, name: 'South hall' },
];
const LOCKERS: Locker[] = [
  { lockerId: 11, code: 'L-01', hallId: 1, hallName: 'North hall' },
  { lockerId: 12, code: 'L-02', hallId: 2, hallName: 'South hall' },
];
const FILTERS = { q: '', hall: '', row: '', state: '' };
const query = (f: typeof FILTERS) => ({ keyword: f.q || undefined, hallId: Number(f.hall) || undefined });

function lockerList() {
  const calls = { list: [] as object[], lookups: 0 };
  const kind = defineHouseList({
    kind: 'shop',
    editPermission: 'locker:view',
    filters: FILTERS,
    query,
    fetchList: async (page, limit, f) => {
      const q = query(f);
      calls.list.push({ page, limit, ...q });
      const list = LOCKERS.filter((l) => (!q.hallId || l.hallId === q.hallId) && l.code.includes(q.keyword ?? ''));
      return { list, total: list.length };
    },
    loadLookups: async () => {
      calls.lookups++;
      return HALLS;
    },
    emptyLookups: [] as typeof HALLS,
    idOf: (r) => r.lockerId,
    nameOf: (r) => r.code,
    columns: () => [
      { key: 'code', header: 'Code', cell: (r) => r.code },
      { key: 'hall', header: 'Hall', cell: (r) => r.hallName },
    ],
    selectFilters: (_t, halls) => [
      {
        key: 'hall',
        label: 'Hall',
        options: halls.map((h) => ({ value: h.id, text: h.name })),
        testId: 'hall-filter',
        resets: ['row'],
      },
    ],
    testIds: { screen: 'lockers-screen', table: 'lockers-table', row: (r) => `locker-${r.code}`, keyword: 'lk' },
    emptyText: 'buildings.empty.shops',
    add: { label: 'buildings.actions.addShop', testId: 'add-locker' },
    Editor: ({ record, onSaved }: { record: Locker | null; onSaved: () => void }) => (
      <div role="dialog" data-testid="locker-editor">
        {record ? `edit ${record.code}` : 'new locker'}
        <button onClick={onSaved}>save</button>
      </div>
    ),
    InfoDialog: ({ id, onEdit }) =>
      id === null ? null : (
        <div data-testid="locker-info">
          info {id}
          <button onClick={() => onEdit(LOCKERS.find((l) => l.lockerId === id)!)}>edit</button>
        </div>
      ),
  });
  return { kind, calls };
}

function renderAt(url: string) {
  const { kind, calls } = lockerList();
  function Url() {
    return <output data-testid="url">{useLocation().search}</output>;
  }
  render(
    <MemoryRouter initialEntries={[url]}>
      <HouseListPage kind={kind} />
      <Url />
    </MemoryRouter>,
  );
  return calls;
}

describe('house list screen', () => {
  it('when a kind is shown, then its own columns sit between the checkbox and the details link, and its filter choices come from its lookups', async () => {
    renderAt('/lockers');
    const row = await screen.findByTestId('locker-L-01');
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['', 'L-01', 'North hall', 'Details']);
    expect(within(row).getByRole('checkbox').getAttribute('aria-label')).toBe('Select L-01');
    expect(within(row).getByTestId('open-detail').getAttribute('href')).toBe('/lockers?open=11');
    await waitFor(() =>
      expect([...screen.getByTestId('hall-filter').querySelectorAll('option')].map((o) => o.textContent)).toEqual([
        'All',
        'North hall',
        'South hall',
      ]),
    );
  });

  it("when a filter is chosen and applied, then the kind's query is sent from page 1 and the URL holds it", async () => {
    const calls = renderAt('/lockers?row=3');
    await screen.findByTestId('locker-L-02');
    await waitFor(() => expect(screen.getByTestId('hall-filter').querySelectorAll('option')).toHaveLength(3));
    fireEvent.change(screen.getByTestId('hall-filter'), { target: { value: '1' } });
    fireEvent.click(screen.getByTestId('search'));
    await waitFor(() => expect(screen.queryByTestId('locker-L-02')).toBeNull());
    expect(screen.getByTestId('locker-L-01')).toBeTruthy();
    // The hall filter empties the filter it resets (`row`).
    expect(screen.getByTestId('url').textContent).toBe('?hall=1');
    expect(calls.list.at(-1)).toEqual({ page: 1, limit: 10, keyword: undefined, hallId: 1 });
  });

  it('when a record is added, or edited from its info dialog, then the editor gets it and a save reloads the list and the lookups', async () => {
    const calls = renderAt('/lockers?open=12');
    await screen.findByTestId('locker-L-01');
    await waitFor(() => expect(calls.lookups).toBe(1));
    fireEvent.click(within(screen.getByTestId('locker-info')).getByText('edit'));
    expect(screen.getByTestId('locker-editor').textContent).toContain('edit L-02');
    fireEvent.click(screen.getByText('save'));
    expect(screen.queryByTestId('locker-editor')).toBeNull();
    await waitFor(() => expect(calls.lookups).toBe(2));
    await waitFor(() => expect(calls.list.length).toBeGreaterThanOrEqual(2));

    fireEvent.click(screen.getByTestId('add-locker'));
    expect(screen.getByTestId('locker-editor').textContent).toContain('new locker');
  });

  it("when the person lacks the kind's edit permission, then there is no add button and no details link", async () => {
    session.perms = [];
    renderAt('/lockers');
    const row = await screen.findByTestId('locker-L-01');
    expect(screen.queryByTestId('add-locker')).toBeNull();
    expect(within(row).queryByTestId('open-detail')).toBeNull();
  });
});
