import { useState } from 'react';
import { Button, Form, Image, Label } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { HouseStatus, HouseType, Identity, JoinStatus, Relation } from '@pm/shared';
import { fetchReviewList, imageUrl, type PersonHouseRow } from '../../api';
import { ListScreen, type ListColumn, type StatusTab } from '../../list/components/ListScreen';
import { useListController } from '../../list/hooks/useListController';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { DateRangePicker } from '../../ui/components/DateRangePicker';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { SelectField } from '../../ui/components/SelectField';
import { isDateRangeValid } from '../../ui/utils/dateRange';
import { enumLabel, enumOptions } from '../../ui/utils/enumLabels';
import { formatTime } from '../../ui/utils/formatTime';
import { unitDisplay } from '../../ui/utils/unitDisplay';
import { useHouseActions } from '../hooks/useHouseActions';
import { useReviewTotals } from '../hooks/useReviewTotals';
import { CertPicture } from './CertPicture';
import { HousePeopleTabs } from './HousePeopleTabs';
import { OwnerInfoDialog } from './OwnerInfoDialog';
import { PersonHouseActions } from './PersonHouseActions';
import { RefuseDialog } from './RefuseDialog';
import '../owners.css';

/** The filters and their URL names: `?q=chan&house=1&identity=1&from=2026-11-01&to=2026-11-07`. */
const FILTERS = { q: '', house: '', identity: '', from: '', to: '' };

/** Status tabs: 0 (the default) shows the pending requests, then certified and refused. */
const TAB_STATUS: Record<number, number> = { 0: JoinStatus.pending, 2: JoinStatus.approved, 3: JoinStatus.refused };

/**
 * Owner review (SPEC §2 `/building-management/owner-review`): who asks to join a house, with
 * the house, person, identity, certificate code and picture and time; certify (asking SPEC §4's
 * owner-change question when the house has an owner), refuse with a reason, remove. A join or
 * a decision anywhere reloads the list live; the house link opens the house's people.
 */
export default function OwnerReviewPage() {
  const { t } = useTranslation();
  const [house, setHouse] = useState<PersonHouseRow | null>(null);
  const [info, setInfo] = useState<number | null>(null);
  const list = useListController<PersonHouseRow, typeof FILTERS>({
    filters: FILTERS,
    fetchList: ({ status, page, limit, filters: f }, signal) =>
      fetchReviewList(
        {
          page,
          limit,
          status: TAB_STATUS[status] ?? JoinStatus.pending,
          keyword: f.q || undefined,
          houseType: Number(f.house) || undefined,
          identity: Number(f.identity) || undefined,
          startTime: f.from || undefined,
          endTime: f.to || undefined,
        },
        signal,
      ),
    validateFilters: (d) => isDateRangeValid({ start: d.from, end: d.to }),
  });
  const counts = useReviewTotals();
  const actions = useHouseActions(() => {
    list.reload();
    counts.reload();
  });
  const count = (n: 'pending' | 'certified' | 'refused') => (counts.totals ? counts.totals[n] : null);
  // A resident asked to join, left, or someone decided: show it at once.
  useLiveEvent((e) => {
    if (e.topic === 'residents') list.reload();
  });

  const statusTabs: StatusTab[] = [
    { value: 0, label: t('owners.status.pending'), count: count('pending'), highlight: true },
    { value: 2, label: t('owners.status.certified'), count: count('certified') },
    { value: 3, label: t('owners.status.refused'), count: count('refused') },
  ];

  const columns: ListColumn<PersonHouseRow>[] = [
    {
      key: 'house',
      header: t('owners.columns.house'),
      cell: (r) => (
        <>
          <Button
            className="link-button"
            basic
            size="mini"
            onClick={() => setHouse(r)}
            aria-label={`${t('owners.actions.houseInfo')} ${unitDisplay(r)}`}
            data-testid="house-link"
          >
            {unitDisplay(r)}
          </Button>
          <div className="owners-sub">
            {enumLabel(t, HouseType, r.houseType)} ·{' '}
            <span data-testid="row-house-status">{enumLabel(t, HouseStatus, r.houseStatus)}</span>
          </div>
        </>
      ),
    },
    {
      key: 'person',
      header: t('owners.columns.person'),
      cell: (r) => (
        <>
          {r.photo && <Image avatar src={imageUrl(r.photo)} alt="" />}
          {r.name}
          <div>
            <Button
              className="link-button"
              basic
              size="mini"
              onClick={() => setInfo(r.personHouseId)}
              aria-label={`${t('owners.actions.moreDetail')} ${r.name}`}
              data-testid="more-detail"
            >
              {t('owners.actions.moreDetail')}
            </Button>
          </div>
        </>
      ),
    },
    {
      key: 'identity',
      header: t('owners.columns.identity'),
      cell: (r) => (
        <>
          {enumLabel(t, Identity, r.identity)}
          {r.relation ? ` · ${enumLabel(t, Relation, r.relation)}` : ''}
          {r.identity === Identity.owner && r.currentOwnerName && (
            <div className="owners-sub">{t('owners.currentOwner', { name: r.currentOwnerName })}</div>
          )}
        </>
      ),
    },
    {
      key: 'cert',
      header: t('owners.columns.certificate'),
      cell: (r) => (
        <>
          {r.houseCertCode ?? '–'}
          <CertPicture path={r.houseCertImg} size="mini" />
        </>
      ),
    },
    { key: 'time', header: t('owners.columns.time'), cell: (r) => formatTime(r.joinTime) },
    {
      key: 'status',
      header: t('owners.columns.status'),
      cell: (r) => (
        <>
          <Label size="mini" color={r.status === 1 ? 'orange' : r.status === 2 ? 'green' : 'grey'}>
            {enumLabel(t, JoinStatus, r.status)}
          </Label>
          {r.refuseReason && <div className="owners-sub">{r.refuseReason}</div>}
        </>
      ),
    },
    {
      key: 'actions',
      header: t('owners.columns.actions'),
      cell: (r) => <PersonHouseActions row={r} actions={actions} />,
    },
  ];

  const filters = (
    <>
      <Form.Input
        id="owner-review-keyword"
        label={t('owners.filters.keywordLabel')}
        icon="search"
        iconPosition="left"
        placeholder={t('owners.filters.keyword')}
        value={list.draft.q}
        onChange={(_, d) => list.setDraft({ q: d.value })}
        data-testid="keyword"
      />
      <SelectField
        label={t('owners.filters.houseType')}
        value={list.draft.house}
        onChange={(v) => list.setDraft({ house: v })}
        options={enumOptions(t, HouseType)}
        emptyText={t('owners.filters.all')}
        data-testid="house-filter"
      />
      <SelectField
        label={t('owners.filters.identity')}
        value={list.draft.identity}
        onChange={(v) => list.setDraft({ identity: v })}
        options={enumOptions(t, Identity)}
        emptyText={t('owners.filters.all')}
        data-testid="identity-filter"
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
      data-testid="owner-review"
      statusTabs={statusTabs}
      filters={filters}
      columns={columns}
      rowKey={(r) => r.personHouseId}
      rowTestId={(r) => `review-row-${r.personHouseId}`}
      tableTestId="review-table"
      emptyText={t('owners.empty')}
    >
      <RefuseDialog
        row={actions.refusing}
        busy={actions.busy}
        onRefuse={(row, reason) => void actions.refuse(row, reason)}
        onClose={() => actions.setRefusing(null)}
      />
      <OwnerInfoDialog personHouseId={info} onClose={() => setInfo(null)} />
      <DraggableDialog
        open={house !== null}
        title={house ? `${enumLabel(t, HouseType, house.houseType)} ${unitDisplay(house)}` : ''}
        onClose={() => setHouse(null)}
        size="large"
        data-testid="house-dialog"
      >
        {house && <HousePeopleTabs houseType={house.houseType as 1 | 2 | 3} houseId={house.houseId} />}
      </DraggableDialog>
    </ListScreen>
  );
}
