import { Link } from 'react-router-dom';
import { Button, Form, Image } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { EventType, HouseType, WorkStatus, enumValues } from '@pm/shared';
import { fetchWorkList, imageUrl, type WorkRow } from '../../api';
import { usePermission } from '../../auth/hooks/usePermission';
import { ListScreen, type ListColumn, type StatusTab } from '../../list/components/ListScreen';
import { useListController } from '../../list/hooks/useListController';
import { liveState } from '../../live/states/liveState';
import { DateRangePicker } from '../../ui/components/DateRangePicker';
import { SelectField } from '../../ui/components/SelectField';
import { isDateRangeValid } from '../../ui/utils/dateRange';
import { enumLabel, enumOptions } from '../../ui/utils/enumLabels';
import { formatTime } from '../../ui/utils/formatTime';
import { unitDisplay } from '../../ui/utils/unitDisplay';
import type { WorkKind } from '../utils/workKinds';
import { StatusLabel } from './StatusLabel';
import { WorkDetailDialog } from './WorkDetailDialog';
import '../work-orders.css';

/** The filters and their URL names: `?q=lift&type=1&house=2&from=2026-11-01&to=2026-11-07`. */
const FILTERS = { q: '', type: '', house: '', from: '', to: '' };

/**
 * The complaints / event work orders screen (SPEC §2): its columns and filters; the list kit
 * does the rest. It reloads when the person's live counters of this kind change (a resident
 * reported, someone dealt with one) — no polling.
 */
export function WorkOrderPage({ kind }: { kind: WorkKind }) {
  const { t } = useTranslation();
  const live = useSnapshot(liveState);
  const totals = live.snapshot[kind.totalsKey];
  // Unknown until the gateway's snapshot came (socket.io blocked, gateway down): "–", never 0.
  const count = (n: number) => (live.loaded ? n : null);
  const canView = usePermission(kind.perms.view);
  const list = useListController<WorkRow, typeof FILTERS>({
    filters: FILTERS,
    fetchList: ({ status, page, limit, filters: f }, signal) =>
      fetchWorkList(
        kind.kind,
        page,
        limit,
        {
          status: status || undefined,
          keyword: f.q,
          type: Number(f.type) || undefined,
          houseType: Number(f.house) || undefined,
          startTime: f.from || undefined,
          endTime: f.to || undefined,
        },
        signal,
      ),
    reloadKey: `${totals.untreated}/${totals.processing}/${totals.completed}`,
    validateFilters: (d) => isDateRangeValid({ start: d.from, end: d.to }),
  });

  const statusTabs: StatusTab[] = [
    {
      value: 0,
      label: t('workOrders.status.all'),
      count: count(totals.untreated + totals.processing + totals.completed),
    },
    ...(Object.entries(WorkStatus) as [keyof typeof WorkStatus, number][]).map(([name, value]) => ({
      value,
      label: enumLabel(t, WorkStatus, value),
      count: count(totals[name]),
      highlight: value === WorkStatus.untreated,
    })),
  ];

  const columns: ListColumn<WorkRow>[] = [
    { key: 'code', header: t(kind.codeColumn), cell: (r) => r.code },
    { key: 'theme', header: t('workOrders.columns.theme'), cell: (r) => r.name },
    ...(kind.hasType
      ? [{ key: 'type', header: t('workOrders.columns.type'), cell: (r: WorkRow) => enumLabel(t, EventType, r.type) }]
      : []),
    {
      key: 'reporter',
      header: t('workOrders.columns.reporter'),
      cell: (r) => (
        <>
          {r.reportPersonPhoto && <Image avatar src={imageUrl(r.reportPersonPhoto)} alt="" />}
          {r.reportPersonName}
        </>
      ),
    },
    { key: 'house', header: t('workOrders.columns.house'), cell: (r) => unitDisplay(r) },
    { key: 'reportTime', header: t('workOrders.columns.reportTime'), cell: (r) => formatTime(r.reportTime) },
    { key: 'status', header: t('workOrders.columns.status'), cell: (r) => <StatusLabel status={r.status} /> },
    {
      key: 'actions',
      header: t('workOrders.columns.actions'),
      cell: (r) =>
        canView && (
          <Button
            as={Link}
            to={list.linkTo({ open: r.id, tab: null })}
            size="mini"
            basic
            primary
            aria-label={`${t('workOrders.details')} ${r.code}`}
            data-testid="open-detail"
          >
            {t('workOrders.details')}
          </Button>
        ),
    },
  ];

  const filters = (
    <>
      <Form.Input
        id={`${kind.kind}-keyword`}
        label={t('workOrders.filters.keywordLabel')}
        icon="search"
        iconPosition="left"
        placeholder={t('workOrders.filters.keyword')}
        value={list.draft.q}
        onChange={(_, d) => list.setDraft({ q: d.value })}
        data-testid="keyword"
      />
      {kind.hasType && (
        <SelectField
          label={t('workOrders.filters.type')}
          value={list.draft.type}
          onChange={(type) => list.setDraft({ type })}
          options={enumOptions(t, EventType)}
          emptyText={t('workOrders.status.all')}
          data-testid="type-filter"
        />
      )}
      <SelectField
        label={t('workOrders.filters.houseType')}
        value={list.draft.house}
        onChange={(house) => list.setDraft({ house })}
        options={enumValues(HouseType).map((v) => ({ value: v, text: enumLabel(t, HouseType, v) }))}
        emptyText={t('workOrders.status.all')}
        data-testid="house-filter"
      />
      <DateRangePicker
        value={{ start: list.draft.from, end: list.draft.to }}
        onChange={(r) => list.setDraft({ from: r.start, to: r.end })}
      />
    </>
  );

  return (
    <ListScreen
      list={list}
      data-testid={kind.testId}
      statusTabs={statusTabs}
      filters={filters}
      columns={columns}
      rowKey={(r) => r.id}
      rowTestId={(r) => `work-row-${r.code}`}
      tableTestId="work-table"
      emptyText={t('workOrders.empty')}
    >
      <WorkDetailDialog
        kind={kind}
        id={list.open}
        tab={list.tab}
        tabLink={(tab) => list.linkTo({ tab })}
        onClose={list.closeRecord}
        onChanged={list.reload}
      />
    </ListScreen>
  );
}
