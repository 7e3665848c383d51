import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import '../../i18n/i18n';
import { useKeywordList } from '../hooks/useKeywordList';
import { answerConfirm, confirmState } from '../../ui/states/confirms';
import { toastState } from '../../ui/states/toasts';

afterEach(() => {
  cleanup();
  toastState.items = [];
  confirmState.open = [];
});

interface Row {
  id: number;
  name: string;
}

let kit: ReturnType<typeof useKeywordList<Row>>;

function Harness(props: Parameters<typeof useKeywordList<Row>>[0]) {
  kit = useKeywordList<Row>(props);
  return null;
}

/** An in-memory source of rows: pages by keyword, one record by id, deletes by ids. */
function source(names: string[]) {
  let rows = names.map((name, i) => ({ id: i + 1, name }));
  const asked: { page: number; limit: number; keyword?: string }[] = [];
  return {
    asked,
    rows: () => rows,
    fetchPage: async (q: { page: number; limit: number; keyword?: string }) => {
      asked.push(q);
      const list = rows.filter((r) => !q.keyword || r.name.includes(q.keyword));
      return { list: list.slice((q.page - 1) * q.limit, q.page * q.limit), total: list.length };
    },
    fetchRecord: async (id: number) => {
      const row = rows.find((r) => r.id === id);
      if (!row) throw new Error('not found');
      return row;
    },
    deleteRows: async (ids: number[]) => {
      rows = rows.filter((r) => !ids.includes(r.id));
    },
  };
}

describe('useKeywordList', () => {
  it('when the URL names a keyword and a record, then the page is asked for the keyword and the record is loaded', async () => {
    const s = source(['alpha', 'beta', 'alphabet']);
    render(
      <MemoryRouter initialEntries={['/?q=alpha&open=3']}>
        <Harness {...s} />
      </MemoryRouter>,
    );
    await waitFor(() => expect(kit.list.data?.total).toBe(2));
    expect(s.asked.at(-1)).toMatchObject({ page: 1, keyword: 'alpha' });
    await waitFor(() => expect(kit.record).toEqual({ id: 3, name: 'alphabet' }));
  });

  it('when nothing is selected, then delete asks nothing and says to select at least one; when confirmed, the rows go and the selection is cleared', async () => {
    const s = source(['one', 'two', 'three']);
    render(
      <MemoryRouter initialEntries={['/']}>
        <Harness {...s} />
      </MemoryRouter>,
    );
    await waitFor(() => expect(kit.list.data?.total).toBe(3));
    await act(() => kit.remove([], 'Delete?', 'Deleted'));
    expect(confirmState.open).toHaveLength(0);
    expect(toastState.items.map((i) => i.kind)).toEqual(['error']);

    act(() => {
      kit.selection.toggle(1, true);
      kit.selection.toggle(2, true);
    });
    let done!: Promise<void>;
    act(() => {
      done = kit.remove([...kit.selection.ids], 'Delete 2?', 'Deleted 2');
    });
    await waitFor(() => expect(confirmState.open.map((c) => c.content)).toEqual(['Delete 2?']));
    await act(async () => {
      answerConfirm(confirmState.open[0].id, true);
      await done;
    });
    expect(s.rows().map((r) => r.name)).toEqual(['three']);
    expect(toastState.items.at(-1)).toMatchObject({ kind: 'success', text: 'Deleted 2' });
    expect(kit.selection.ids.size).toBe(0);
    await waitFor(() => expect(kit.list.data?.total).toBe(1));
  });
});
