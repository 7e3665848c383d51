import { useLocation } from 'react-router-dom';
import { Button, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { DAY_PROBLEMS, type CheckinDayRow } from '@pm/shared';
import { fetchCheckinDays, reviewMakeup } from '../../api';
import { ListScreen, type ListColumn } from '../../list/components/ListScreen';
import { useListController } from '../../list/hooks/useListController';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { DateRangePicker } from '../../ui/components/DateRangePicker';
import { SelectField } from '../../ui/components/SelectField';
import { showToast } from '../../ui/states/toasts';
import { LinkTabs } from '../../ui/components/LinkTabs';
import { isDateRangeValid } from '../../ui/utils/dateRange';
import { formatTime } from '../../ui/utils/formatTime';
import { CheckinExportButton } from './CheckinExportButton';
import { MakeupRequests } from './MakeupRequests';
import { MonthTotals } from './MonthTotals';
import { useDepartments } from './useDepartments';

/** Filters and their URL names: `?problem=late&from=2026-11-01`. */
const FILTERS = { q: '', dept: '', problem: '', from: '', to: '' };

/** The screen's views (`?view=`): SPEC §2 has no route for make-up requests or month totals. */
const VIEWS = ['records', 'makeups', 'month'] as const;
type View = (typeof VIEWS)[number];

/**
 * /check-in/missing-card-record (issue 32): three views as tabs (links, `?view=makeups|month`;
 * SPEC §2 gives the area no other route, README "Check-in screens"): the missing-card records,
 * the make-up requests, and the month's totals per person.
 */
export default function MissingCardRecordPage() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const asked = new URLSearchParams(search).get('view');
  const view: View = (VIEWS as readonly string[]).includes(asked ?? '') ? (asked as View) : 'records';
  return (
    <>
      <LinkTabs
        label={t('checkin.views.label')}
        className="checkin-views"
        items={VIEWS.map((v) => ({
          key: v,
          // A view starts from its own defaults: the other view's filters and page stay behind.
          to: { pathname, search: v === 'records' ? '' : `?view=${v}` },
          active: view === v,
          testId: `checkin-view-${v}`,
          content: t(`checkin.views.${v}`),
        }))}
      />
      {view === 'records' && <MissingDays />}
      {view === 'makeups' && <MakeupRequests />}
      {view === 'month' && <MonthTotals />}
    </>
  );
}

/**
 * The shifts of working days with a problem (late, left early, missing punch, absent), counted in
 * the estate's days; a pending make-up request is approved or refused here and the day is
 * recomputed.
 */
function MissingDays() {
  const { t } = useTranslation();
  const departments = useDepartments();
  const list = useListController<CheckinDayRow, typeof FILTERS>({
    filters: FILTERS,
    fetchList: ({ page, limit, filters: f }, signal) =>
      fetchCheckinDays(
        {
          page,
          limit,
          keyword: f.q || undefined,
          departmentId: f.dept ? Number(f.dept) : undefined,
          problem: (DAY_PROBLEMS as readonly string[]).includes(f.problem)
            ? (f.problem as (typeof DAY_PROBLEMS)[number])
            : undefined,
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
  const review = async (row: CheckinDayRow, approve: boolean) => {
    try {
      await reviewMakeup(row.pendingMakeupId!, approve);
      showToast('success', t(approve ? 'checkin.makeup.approved' : 'checkin.makeup.refused', { name: row.personName }));
      list.reload();
    } catch {
      // told by the data-access layer
    }
  };
  const problems = (r: CheckinDayRow) =>
    [
      r.late && t('checkin.problems.lateBy', { count: r.lateMinutes }),
      r.leftEarly && t('checkin.problems.earlyBy', { count: r.earlyMinutes }),
      ['missingIn', 'missingOut', 'absent'].includes(r.state) && t(`checkin.problems.${r.state}`),
    ]
      .filter(Boolean)
      .join(', ');
  const columns: ListColumn<CheckinDayRow>[] = [
    { key: 'day', header: t('checkin.columns.day'), cell: (r) => r.day },
    { key: 'name', header: t('checkin.columns.person'), cell: (r) => r.personName },
    { key: 'dept', header: t('checkin.columns.department'), cell: (r) => r.departmentName ?? '' },
    {
      key: 'shift',
      header: t('checkin.columns.shift'),
      cell: (r) => `${formatTime(r.startAt).slice(11)}–${formatTime(r.endAt).slice(11)}`,
    },
    { key: 'in', header: t('checkin.columns.in'), cell: (r) => formatTime(r.inAt) },
    { key: 'out', header: t('checkin.columns.out'), cell: (r) => formatTime(r.outAt) },
    { key: 'problem', header: t('checkin.columns.problem'), cell: problems },
    {
      key: 'makeup',
      header: t('checkin.columns.makeup'),
      cell: (r) =>
        r.pendingMakeupId ? (
          <span className="checkin-makeup-actions">
            <Button
              size="mini"
              primary
              onClick={() => void review(r, true)}
              aria-label={t('checkin.makeup.approveFor', { name: r.personName, day: r.day })}
              data-testid={`approve-${r.pendingMakeupId}`}
            >
              {t('checkin.makeup.approve')}
            </Button>
            <Button
              size="mini"
              basic
              negative
              onClick={() => void review(r, false)}
              aria-label={t('checkin.makeup.refuseFor', { name: r.personName, day: r.day })}
              data-testid={`refuse-${r.pendingMakeupId}`}
            >
              {t('checkin.makeup.refuse')}
            </Button>
          </span>
        ) : (
          ''
        ),
    },
  ];
  const month = (list.filters.from || new Date().toISOString()).slice(0, 7);
  return (
    <>
      <div className="checkin-toolbar">
        <CheckinExportButton
          path="/base/checkin/month/export"
          filters={{ month, departmentId: list.filters.dept ? Number(list.filters.dept) : undefined }}
          fileName={`check-in-${month}.xlsx`}
          label={t('checkin.export.month')}
        />
      </div>
      <ListScreen
        list={list}
        columns={columns}
        rowKey={(r) => `${r.personId}-${r.day}-${r.shift}`}
        tableTestId="missing-table"
        rowTestId={(r) => `missing-row-${r.personId}-${r.day}-${r.shift}`}
        emptyText={t('checkin.empty')}
        filters={
          <>
            <Form.Input
              id="missing-keyword"
              label={t('checkin.filters.person')}
              value={list.draft.q}
              onChange={(_, v) => list.setDraft({ q: v.value })}
              data-testid="missing-keyword"
            />
            <SelectField
              label={t('checkin.filters.department')}
              value={list.draft.dept}
              onChange={(dept) => list.setDraft({ dept })}
              options={departments.map((d) => ({ value: d.departmentId, text: d.name }))}
              emptyText={t('checkin.filters.all')}
              data-testid="missing-department"
            />
            <SelectField
              label={t('checkin.filters.problem')}
              value={list.draft.problem}
              onChange={(problem) => list.setDraft({ problem })}
              options={DAY_PROBLEMS.map((p) => ({ value: p, text: t(`checkin.problems.${p}`) }))}
              emptyText={t('checkin.filters.allProblems')}
              data-testid="missing-problem"
            />
            <DateRangePicker
              value={{ start: list.draft.from, end: list.draft.to }}
              onChange={(r) => list.setDraft({ from: r.start, to: r.end })}
            />
          </>
        }
      />
    </>
  );
}
