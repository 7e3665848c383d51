import type { ReactNode } from 'react';
import { Button, Form, Label, Segment, Table } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { CountValue } from '../../ui/components/CountValue';
import { LinkTabs } from '../../ui/components/LinkTabs';
import { ListPagination } from '../../ui/components/ListPagination';
import type { ListController } from '../hooks/useListController';
import type { ListFilters } from '../utils/listSearchParams';
import { ListEmptyState } from './ListEmptyState';
import './list.css';

/** One column of a list: its header and how a row shows in it. */
export interface ListColumn<Row> {
  key: string;
  header: string;
  cell: (row: Row) => ReactNode;
}

/** A status tab: its value in the URL (0 = all), label and count. */
export interface StatusTab {
  value: number;
  label: string;
  /** Left out when the screen has no count; null: not loaded yet (shown as "–", never 0). */
  count?: number | null;
  /** Draws attention to the count (untreated rows waiting). */
  highlight?: boolean;
}

interface Props<Row, F extends ListFilters> {
  list: ListController<Row, F>;
  columns: ListColumn<Row>[];
  rowKey: (row: Row) => string | number;
  statusTabs?: StatusTab[];
  /** The filter fields, bound to `list.draft`; the shell adds Search and Reset. */
  filters?: ReactNode;
  /** What an empty list with no filters says; "Nothing here yet" by default. */
  emptyText?: string;
  'data-testid'?: string;
  tableTestId?: string;
  rowTestId?: (row: Row) => string;
  /** Dialogs of the screen (the open record). */
  children?: ReactNode;
}

/**
 * A list screen (react-admin's <List>): status tabs that are links carrying the list's state,
 * the filter form, the table, pagination, and an empty state that tells "no match" from
 * "nothing yet". The screen only says which columns and filters.
 */
export function ListScreen<Row, F extends ListFilters>({
  list,
  columns,
  rowKey,
  statusTabs,
  filters,
  emptyText,
  tableTestId = 'list-table',
  rowTestId,
  children,
  ...rest
}: Props<Row, F>) {
  const { t } = useTranslation();
  const rows = list.data?.list ?? [];
  return (
    <div className="list-screen" data-testid={rest['data-testid']}>
      {statusTabs && (
        <LinkTabs
          label={t('common.status')}
          className="list-status-tabs"
          items={statusTabs.map((s) => ({
            key: s.value,
            to: list.linkTo({ status: s.value, page: 1, open: null, tab: null }),
            active: list.status === s.value,
            testId: `status-tab-${s.value}`,
            content: (
              <>
                {s.label}
                {s.count !== undefined && (
                  <Label
                    size="mini"
                    circular
                    color={s.highlight && s.count !== null && s.count > 0 ? 'red' : undefined}
                    data-testid={`status-count-${s.value}`}
                  >
                    <CountValue value={s.count} />
                  </Label>
                )}
              </>
            ),
          }))}
        />
      )}
      {filters && (
        <Segment className="list-filters">
          <Form role="search" aria-label={t('common.filters')} onSubmit={() => list.applyFilters()}>
            <div className="list-filter-fields">{filters}</div>
            <div className="list-filter-buttons">
              <Button primary type="submit" data-testid="search">
                {t('common.search')}
              </Button>
              <Button type="button" onClick={list.clearFilters} data-testid="reset">
                {t('common.reset')}
              </Button>
            </div>
          </Form>
        </Segment>
      )}
      <Segment loading={list.loading} className="list-table-wrap">
        {list.data && rows.length === 0 ? (
          <ListEmptyState filtered={list.hasFilters} onClear={list.clearFilters} text={emptyText} />
        ) : (
          <Table celled striped unstackable compact className="list-table" data-testid={tableTestId}>
            <Table.Header>
              <Table.Row>
                {columns.map((c) => (
                  <Table.HeaderCell key={c.key} scope="col">
                    {c.header}
                  </Table.HeaderCell>
                ))}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.map((row) => (
                <Table.Row key={rowKey(row)} data-testid={rowTestId?.(row)}>
                  {columns.map((c) => (
                    <Table.Cell key={c.key}>{c.cell(row)}</Table.Cell>
                  ))}
                </Table.Row>
              ))}
            </Table.Body>
          </Table>
        )}
        <ListPagination total={list.data?.total ?? 0} page={list.page} limit={list.limit} onChange={list.changePage} />
      </Segment>
      {children}
    </div>
  );
}
