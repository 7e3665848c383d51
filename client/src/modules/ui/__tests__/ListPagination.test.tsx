import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import '../../i18n/i18n';
import { ListPagination } from '../components/ListPagination';
import { pageAfterDelete } from '../utils/pagination';

afterEach(cleanup);

function setWidth(px: number) {
  window.matchMedia = ((query: string) => {
    const max = Number(/max-width:\s*(\d+)px/.exec(query)?.[1] ?? Infinity);
    return {
      matches: px <= max,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    } as unknown as MediaQueryList;
  }) as typeof window.matchMedia;
}

describe('list pagination', () => {
  it('when the total is 0, then nothing is shown', () => {
    setWidth(1280);
    render(<ListPagination total={0} page={1} limit={10} onChange={() => undefined} />);
    expect(screen.queryByTestId('list-pagination')).toBeNull();
  });

  it('when opened, then the page sizes are 10, 20, 50 and 100', () => {
    setWidth(1280);
    render(<ListPagination total={95} page={1} limit={10} onChange={() => undefined} />);
    const options = screen.getByTestId('page-size').querySelectorAll('option');
    expect([...options].map((o) => o.textContent)).toEqual(['10 / page', '20 / page', '50 / page', '100 / page']);
    expect(screen.getByText('Total 95')).toBeTruthy();
  });

  it('when a page number is clicked, then onChange gets that page', async () => {
    setWidth(1280);
    const calls: [number, number][] = [];
    render(<ListPagination total={95} page={1} limit={10} onChange={(p, l) => calls.push([p, l])} />);
    fireEvent.click(screen.getByText('3'));
    await waitFor(() => expect(calls).toEqual([[3, 10]]));
  });

  it('when two pagers share a screen (a list behind a dialog), then each has its own name for screen readers', () => {
    setWidth(1280);
    render(
      <>
        <ListPagination total={95} page={1} limit={10} onChange={() => undefined} />
        <ListPagination total={30} page={1} limit={10} onChange={() => undefined} label="Pages: Tenants" />
      </>,
    );
    expect(screen.getAllByRole('navigation').map((n) => n.getAttribute('aria-label'))).toEqual([
      'Pages',
      'Pages: Tenants',
    ]);
  });

  it('when the window is 880 px or narrower, then the page-number list is dropped', () => {
    setWidth(880);
    render(<ListPagination total={95} page={2} limit={10} onChange={() => undefined} />);
    expect(screen.getByTestId('list-pagination').className).toContain('narrow');
    expect(screen.queryByText('3')).toBeNull();
  });

  it('when the last row of the last page is deleted, then the page steps back', () => {
    expect(pageAfterDelete(3, 10, 21)).toBe(2);
    expect(pageAfterDelete(3, 10, 25)).toBe(3);
    expect(pageAfterDelete(1, 10, 1)).toBe(1);
    expect(pageAfterDelete(5, 10, 50, 10)).toBe(4);
  });
});
