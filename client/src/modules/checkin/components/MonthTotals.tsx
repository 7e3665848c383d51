import { Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { fetchCheckinMonth, type CheckinMonthRow } from '../../api';
import { ListScreen, type ListColumn } from '../../list/components/ListScreen';
import { useListController } from '../../list/hooks/useListController';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { SelectField } from '../../ui/components/SelectField';
import { CheckinExportButton } from './CheckinExportButton';
import { useDepartments } from './useDepartments';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
/** This month (yyyy-MM) on the person's clock; the api counts its days in the estate's zone. */
const thisMonth = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
};

/**
 * The month's totals per person (issue 32): shifts, late (times and minutes), left early, missing
 * punch-in and punch-out, absences; exported to Excel in the background with the same filters.
 * `?view=month&month=2026-10&dept=3&q=chan`.
 */
export function MonthTotals() {
  const { t } = useTranslation();
  const departments = useDepartments();
  const filters = { month: thisMonth(), q: '', dept: '' };
  const list = useListController<CheckinMonthRow, typeof filters>({
    filters,
    fetchList: ({ page, limit, filters: f }, signal) =>
      fetchCheckinMonth(
        {
          page,
          limit,
          month: MONTH.test(f.month) ? f.month : thisMonth(),
          keyword: f.q || undefined,
          departmentId: f.dept ? Number(f.dept) : undefined,
        },
        signal,
      ),
    validateFilters: (d) => MONTH.test(d.month),
  });
  useLiveEvent((e) => {
    if (e.topic === 'checkin') list.reload();
  });
  const month = MONTH.test(list.filters.month) ? list.filters.month : thisMonth();
  const count = (key: keyof CheckinMonthRow, header: string): ListColumn<CheckinMonthRow> => ({
    key,
    header,
    cell: (r) => r[key],
  });
  const columns: ListColumn<CheckinMonthRow>[] = [
    { key: 'name', header: t('checkin.columns.person'), cell: (r) => r.personName },
    { key: 'dept', header: t('checkin.columns.department'), cell: (r) => r.departmentName ?? '' },
    count('shifts', t('checkin.totals.shifts')),
    count('late', t('checkin.totals.late')),
    count('lateMinutes', t('checkin.totals.lateMinutes')),
    count('leftEarly', t('checkin.totals.leftEarly')),
    count('missingIn', t('checkin.totals.missingIn')),
    count('missingOut', t('checkin.totals.missingOut')),
    count('absent', t('checkin.totals.absent')),
  ];
  return (
    <>
      <div className="checkin-toolbar">
        <CheckinExportButton
          path="/base/checkin/month/export"
          filters={{
            month,
            keyword: list.filters.q || undefined,
            departmentId: list.filters.dept ? Number(list.filters.dept) : undefined,
          }}
          fileName={`check-in-totals-${month}.xlsx`}
          label={t('checkin.export.month')}
        />
      </div>
      <ListScreen
        list={list}
        columns={columns}
        rowKey={(r) => r.personId}
        tableTestId="month-table"
        rowTestId={(r) => `month-row-${r.personId}`}
        emptyText={t('checkin.empty')}
        filters={
          <>
            <Form.Input
              id="month-month"
              type="month"
              required
              label={t('checkin.filters.month')}
              value={list.draft.month}
              onChange={(_, v) => list.setDraft({ month: v.value })}
              data-testid="month-month"
            />
            <Form.Input
              id="month-keyword"
              label={t('checkin.filters.person')}
              value={list.draft.q}
              onChange={(_, v) => list.setDraft({ q: v.value })}
              data-testid="month-keyword"
            />
            <SelectField
              label={t('checkin.filters.department')}
              value={list.draft.dept}
              onChange={(dept) => list.setDraft({ dept })}
              options={departments.map((d) => ({ value: d.departmentId, text: d.name }))}
              emptyText={t('checkin.filters.all')}
              data-testid="month-department"
            />
          </>
        }
      />
    </>
  );
}
