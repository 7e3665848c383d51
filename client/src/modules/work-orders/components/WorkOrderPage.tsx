import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, Dropdown, Form, Image, Label, Menu, Segment, Table } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { DEFAULT_LIMIT } from '@pm/shared';
import { fetchWorkList, imageUrl, type WorkFilter, type WorkRow } from '../../api';
import { usePermission } from '../../auth/hooks/usePermission';
import { liveState } from '../../live/states/liveState';
import { DateRangePicker } from '../../ui/components/DateRangePicker';
import { EmptyPlaceholder } from '../../ui/components/EmptyPlaceholder';
import { ListPagination } from '../../ui/components/ListPagination';
import { isDateRangeValid, type DateRange } from '../../ui/utils/dateRange';
import { formatTime, unitDisplay } from '../utils/workFormat';
import type { WorkScreen } from '../utils/workKinds';
import { StatusLabel } from './StatusLabel';
import { WorkDetailDialog } from './WorkDetailDialog';
import '../work-orders.css';

const STATUSES = [0, 1, 2, 3] as const;

/**
 * The complaints / event work orders screen (SPEC §2): status tabs with live counts, filters,
 * the paged list and the detail dialog. The list refreshes itself when the person's live
 * counters of this kind change (a resident reported, someone dealt with one) — no polling.
 */
export function WorkOrderPage({ screen }: { screen: WorkScreen }) {
  const { t } = useTranslation();
  const live = useSnapshot(liveState);
  const totals = live.snapshot[screen.totalsKey];
  const canView = usePermission(screen.perms.view);
  const [status, setStatus] = useState(0);
  const [draft, setDraft] = useState<{ keyword: string; type: number; houseType: number; range: DateRange }>({
    keyword: '',
    type: 0,
    houseType: 0,
    range: { start: '', end: '' },
  });
  const [filter, setFilter] = useState<WorkFilter>({});
  const [page, setPage] = useState({ page: 1, limit: DEFAULT_LIMIT });
  const [data, setData] = useState<{ list: WorkRow[]; total: number } | null>(null);
  const [loading, setLoading] = useState(false);
  const [openId, setOpenId] = useState<number | null>(null);
  const request = useRef(0);

  const load = useCallback(() => {
    const mine = ++request.current;
    setLoading(true);
    fetchWorkList(screen.kind, page.page, page.limit, { ...filter, status: status || undefined })
      .then((d) => {
        if (mine !== request.current) return;
        // A page that became empty (its last row moved away) steps back (SPEC §9).
        if (d.list.length === 0 && page.page > 1 && d.total > 0)
          setPage((p) => ({ ...p, page: Math.max(1, Math.ceil(d.total / p.limit)) }));
        else setData({ list: d.list, total: d.total });
      })
      .catch(() => undefined)
      .finally(() => mine === request.current && setLoading(false));
  }, [screen.kind, page, filter, status]);

  // Reload on filter/page changes and whenever this kind's live totals change.
  const totalsKey = `${totals.untreated}/${totals.processing}/${totals.completed}`;
  useEffect(() => {
    load();
  }, [load, totalsKey]);

  const search = () => {
    if (!isDateRangeValid(draft.range)) return;
    setFilter({
      keyword: draft.keyword,
      type: draft.type || undefined,
      houseType: draft.houseType || undefined,
      startTime: draft.range.start || undefined,
      endTime: draft.range.end || undefined,
    });
    setPage((p) => ({ ...p, page: 1 }));
  };
  const reset = () => {
    setDraft({ keyword: '', type: 0, houseType: 0, range: { start: '', end: '' } });
    setFilter({});
    setPage((p) => ({ ...p, page: 1 }));
  };

  const count = (s: number) =>
    s === 1
      ? totals.untreated
      : s === 2
        ? totals.processing
        : s === 3
          ? totals.completed
          : totals.untreated + totals.processing + totals.completed;

  return (
    <div className="work-page" data-testid={`work-page-${screen.kind}`}>
      <Menu pointing secondary className="work-tabs">
        {STATUSES.map((s) => (
          <Menu.Item
            key={s}
            active={status === s}
            onClick={() => {
              setStatus(s);
              setPage((p) => ({ ...p, page: 1 }));
            }}
            data-testid={`status-tab-${s}`}
          >
            {t(s === 0 ? 'workOrders.status.all' : `workOrders.status.s${s}`)}
            <Label
              size="mini"
              circular
              color={s === 1 && count(s) > 0 ? 'red' : undefined}
              data-testid={`status-count-${s}`}
            >
              {count(s)}
            </Label>
          </Menu.Item>
        ))}
      </Menu>
      <Segment className="work-filters">
        <Form onSubmit={search}>
          <Form.Group widths="equal" className="work-filter-row">
            <Form.Input
              icon="search"
              iconPosition="left"
              placeholder={t('workOrders.filters.keyword')}
              value={draft.keyword}
              onChange={(_, d) => setDraft({ ...draft, keyword: d.value })}
              data-testid="keyword"
            />
            {screen.kind === 'eventOrder' && (
              <Form.Field>
                <Dropdown
                  selection
                  clearable
                  placeholder={t('workOrders.filters.type')}
                  value={draft.type || ''}
                  options={[1, 2, 3, 4, 5].map((n) => ({ key: n, value: n, text: t(`workOrders.eventType.t${n}`) }))}
                  onChange={(_, d) => setDraft({ ...draft, type: Number(d.value) || 0 })}
                  data-testid="type-filter"
                />
              </Form.Field>
            )}
            <Form.Field>
              <Dropdown
                selection
                clearable
                placeholder={t('workOrders.filters.houseType')}
                value={draft.houseType || ''}
                options={[1, 2, 3].map((n) => ({ key: n, value: n, text: t(`workOrders.houseType.h${n}`) }))}
                onChange={(_, d) => setDraft({ ...draft, houseType: Number(d.value) || 0 })}
              />
            </Form.Field>
          </Form.Group>
          <DateRangePicker value={draft.range} onChange={(range) => setDraft({ ...draft, range })} />
          <Button primary type="submit" data-testid="search">
            {t('workOrders.filters.search')}
          </Button>
          <Button type="button" onClick={reset}>
            {t('workOrders.filters.reset')}
          </Button>
        </Form>
      </Segment>
      <Segment loading={loading} className="work-table-wrap">
        {data && data.list.length === 0 ? (
          <EmptyPlaceholder text={t('workOrders.empty')} />
        ) : (
          <Table celled striped unstackable compact className="work-table" data-testid="work-table">
            <Table.Header>
              <Table.Row>
                <Table.HeaderCell>{t(screen.codeColumn)}</Table.HeaderCell>
                <Table.HeaderCell>{t('workOrders.columns.theme')}</Table.HeaderCell>
                {screen.kind === 'eventOrder' && <Table.HeaderCell>{t('workOrders.columns.type')}</Table.HeaderCell>}
                <Table.HeaderCell>{t('workOrders.columns.reporter')}</Table.HeaderCell>
                <Table.HeaderCell>{t('workOrders.columns.house')}</Table.HeaderCell>
                <Table.HeaderCell>{t('workOrders.columns.reportTime')}</Table.HeaderCell>
                <Table.HeaderCell>{t('workOrders.columns.status')}</Table.HeaderCell>
                <Table.HeaderCell>{t('workOrders.columns.actions')}</Table.HeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {data?.list.map((r) => (
                <Table.Row key={r.id} data-testid={`work-row-${r.code}`}>
                  <Table.Cell>{r.code}</Table.Cell>
                  <Table.Cell>{r.name}</Table.Cell>
                  {screen.kind === 'eventOrder' && (
                    <Table.Cell>{r.type ? t(`workOrders.eventType.t${r.type}`) : ''}</Table.Cell>
                  )}
                  <Table.Cell>
                    {r.reportPersonPhoto && <Image avatar src={imageUrl(r.reportPersonPhoto)} alt="" />}
                    {r.reportPersonName}
                  </Table.Cell>
                  <Table.Cell>{unitDisplay(r)}</Table.Cell>
                  <Table.Cell>{formatTime(r.reportTime)}</Table.Cell>
                  <Table.Cell>
                    <StatusLabel status={r.status} />
                  </Table.Cell>
                  <Table.Cell>
                    {canView && (
                      <Button size="mini" basic primary onClick={() => setOpenId(r.id)} data-testid="open-detail">
                        {t('workOrders.details')}
                      </Button>
                    )}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table>
        )}
        <ListPagination
          total={data?.total ?? 0}
          page={page.page}
          limit={page.limit}
          onChange={(p, l) => setPage({ page: p, limit: l })}
        />
      </Segment>
      <WorkDetailDialog screen={screen} id={openId} onClose={() => setOpenId(null)} onChanged={load} />
    </div>
  );
}
