import { useEffect, useState } from 'react';
import { Button, Form, Label } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { MAKEUP_STATUSES } from '@pm/shared';
import { fetchCheckinStaff, fetchMakeups, reviewMakeup, type CheckinMakeupRow } from '../../api';
import { ListScreen, type ListColumn } from '../../list/components/ListScreen';
import { useListController } from '../../list/hooks/useListController';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { DateRangePicker } from '../../ui/components/DateRangePicker';
import { SelectField } from '../../ui/components/SelectField';
import { showToast } from '../../ui/states/toasts';
import { isDateRangeValid } from '../../ui/utils/dateRange';
import { formatTime } from '../../ui/utils/formatTime';

/** Filters and their URL names: `?view=makeups&status=1&person=12&q=chan&from=2026-11-01&to=2026-11-30`. */
const FILTERS = { person: '', q: '', from: '', to: '' };
const STATUS_NAMES: Record<number, 'pending' | 'approved' | 'refused'> = {
  [MAKEUP_STATUSES.pending]: 'pending',
  [MAKEUP_STATUSES.approved]: 'approved',
  [MAKEUP_STATUSES.refused]: 'refused',
};

/**
 * The make-up requests of the estate's staff (issue 32), newest first, by state (status tabs:
 * all, waiting, approved, refused), person, part of the name and the days of the shifts asked
 * for (a date range, SPEC §5 rules): who, which day and shift, in or out at what time,
 * why; a supervisor (checkin:approve) approves (the punch is written and the day recomputed) or
 * refuses one that waits.
 */
export function MakeupRequests() {
  const { t } = useTranslation();
  const [staff, setStaff] = useState<{ personId: number; name: string }[]>([]);
  useEffect(() => {
    const abort = new AbortController();
    fetchCheckinStaff(abort.signal).then(
      (d) => setStaff(d.staff),
      () => undefined,
    );
    return () => abort.abort();
  }, []);
  const list = useListController<CheckinMakeupRow, typeof FILTERS>({
    filters: FILTERS,
    fetchList: ({ status, page, limit, filters: f }, signal) =>
      fetchMakeups(
        {
          page,
          limit,
          status: status || undefined,
          personId: f.person ? Number(f.person) : undefined,
          keyword: f.q || undefined,
          startDate: f.from || undefined,
          endDate: f.to || undefined,
        },
        signal,
      ),
    validateFilters: (d) => isDateRangeValid({ start: d.from, end: d.to }),
  });
  useLiveEvent((e) => {
    if (e.topic === 'checkin') list.reload();
  });
  const review = async (row: CheckinMakeupRow, approve: boolean) => {
    try {
      await reviewMakeup(row.makeupId, approve);
      showToast('success', t(approve ? 'checkin.makeup.approved' : 'checkin.makeup.refused', { name: row.personName }));
      list.reload();
    } catch {
      // told by the data-access layer
    }
  };
  const columns: ListColumn<CheckinMakeupRow>[] = [
    { key: 'name', header: t('checkin.columns.person'), cell: (r) => r.personName },
    { key: 'day', header: t('checkin.columns.day'), cell: (r) => r.day },
    { key: 'shift', header: t('checkin.columns.shift'), cell: (r) => t('checkin.makeup.shiftN', { n: r.shift + 1 }) },
    {
      key: 'asked',
      header: t('checkin.makeup.asked'),
      cell: (r) => `${t(`checkin.kinds.${r.kind}`)} ${formatTime(r.at)}`,
    },
    { key: 'reason', header: t('checkin.makeup.reason'), cell: (r) => r.reason },
    {
      key: 'state',
      header: t('checkin.makeup.state'),
      cell: (r) => (
        <Label size="small" color={r.status === MAKEUP_STATUSES.pending ? 'orange' : undefined}>
          {t(`checkin.makeup.states.${STATUS_NAMES[r.status] ?? 'pending'}`)}
        </Label>
      ),
    },
    {
      key: 'review',
      header: t('checkin.makeup.review'),
      cell: (r) =>
        r.status === MAKEUP_STATUSES.pending ? (
          <span className="checkin-makeup-actions">
            <Button
              size="mini"
              primary
              onClick={() => void review(r, true)}
              aria-label={t('checkin.makeup.approveFor', { name: r.personName, day: r.day })}
              data-testid={`makeup-approve-${r.makeupId}`}
            >
              {t('checkin.makeup.approve')}
            </Button>
            <Button
              size="mini"
              basic
              negative
              onClick={() => void review(r, false)}
              aria-label={t('checkin.makeup.refuseFor', { name: r.personName, day: r.day })}
              data-testid={`makeup-refuse-${r.makeupId}`}
            >
              {t('checkin.makeup.refuse')}
            </Button>
          </span>
        ) : (
          [r.reviewerName, r.reviewedAt && formatTime(r.reviewedAt), r.reviewNote].filter(Boolean).join(' · ')
        ),
    },
  ];
  return (
    <ListScreen
      list={list}
      columns={columns}
      rowKey={(r) => r.makeupId}
      statusTabs={[
        { value: 0, label: t('checkin.makeup.states.all') },
        { value: MAKEUP_STATUSES.pending, label: t('checkin.makeup.states.pending') },
        { value: MAKEUP_STATUSES.approved, label: t('checkin.makeup.states.approved') },
        { value: MAKEUP_STATUSES.refused, label: t('checkin.makeup.states.refused') },
      ]}
      tableTestId="makeup-table"
      rowTestId={(r) => `makeup-row-${r.makeupId}`}
      emptyText={t('checkin.empty')}
      filters={
        <>
          <SelectField
            label={t('checkin.filters.person')}
            value={list.draft.person}
            onChange={(person) => list.setDraft({ person })}
            options={staff.map((p) => ({ value: p.personId, text: p.name }))}
            emptyText={t('checkin.filters.all')}
            data-testid="makeup-person"
          />
          <Form.Input
            id="makeup-keyword"
            label={t('checkin.filters.name')}
            value={list.draft.q}
            onChange={(_, v) => list.setDraft({ q: v.value })}
            data-testid="makeup-keyword"
          />
          <DateRangePicker
            value={{ start: list.draft.from, end: list.draft.to }}
            onChange={(r) => list.setDraft({ from: r.start, to: r.end })}
          />
        </>
      }
    />
  );
}
