import { Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { fetchPunches, type CheckinPunchRow } from '../../api';
import { ListScreen, type ListColumn } from '../../list/components/ListScreen';
import { useListController } from '../../list/hooks/useListController';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { DateRangePicker } from '../../ui/components/DateRangePicker';
import { SelectField } from '../../ui/components/SelectField';
import { isDateRangeValid } from '../../ui/utils/dateRange';
import { formatTime } from '../../ui/utils/formatTime';
import { CheckinExportButton } from './CheckinExportButton';
import { useDepartments } from './useDepartments';

/** Filters and their URL names: `?q=lee&dept=2&place=out&from=2026-11-01&to=2026-11-30`. */
const FILTERS = { q: '', dept: '', place: '', from: '', to: '' };

/** The call's filters of the list's (applied) filters. */
const bodyOf = (f: typeof FILTERS) => ({
  keyword: f.q || undefined,
  departmentId: f.dept ? Number(f.dept) : undefined,
  inPlace: f.place ? f.place === 'in' : undefined,
  startDate: f.from || undefined,
  endDate: f.to || undefined,
});

/** /check-in/punch-record (issue 32): every punch, refused ones included, newest first. */
export default function PunchRecordPage() {
  const { t } = useTranslation();
  const departments = useDepartments();
  const list = useListController<CheckinPunchRow, typeof FILTERS>({
    filters: FILTERS,
    fetchList: ({ page, limit, filters: f }, signal) => fetchPunches({ page, limit, ...bodyOf(f) }, signal),
    validateFilters: (d) => isDateRangeValid({ start: d.from, end: d.to }),
  });
  useLiveEvent((e) => {
    if (e.topic === 'checkin') list.reload();
  });
  const columns: ListColumn<CheckinPunchRow>[] = [
    { key: 'name', header: t('checkin.columns.person'), cell: (r) => r.personName },
    { key: 'dept', header: t('checkin.columns.department'), cell: (r) => r.departmentName ?? '' },
    { key: 'kind', header: t('checkin.columns.kind'), cell: (r) => t(`checkin.kinds.${r.kind}`) },
    { key: 'at', header: t('checkin.columns.time'), cell: (r) => formatTime(r.at) },
    {
      key: 'place',
      header: t('checkin.columns.place'),
      cell: (r) =>
        r.inPlace
          ? t('checkin.place.in', { distance: r.distanceMetres ?? 0 })
          : t('checkin.place.out', { distance: r.distanceMetres ?? 0 }),
    },
    { key: 'source', header: t('checkin.columns.source'), cell: (r) => t(`checkin.sources.${r.source}`) },
    { key: 'day', header: t('checkin.columns.countedFor'), cell: (r) => r.day ?? '' },
  ];
  return (
    <>
      <div className="checkin-toolbar">
        <CheckinExportButton
          path="/base/checkin/punch/export"
          filters={bodyOf(list.filters)}
          fileName="punches.xlsx"
          label={t('checkin.export.punches')}
        />
      </div>
      <ListScreen
        list={list}
        columns={columns}
        rowKey={(r) => r.punchId}
        tableTestId="punch-table"
        rowTestId={(r) => `punch-row-${r.punchId}`}
        emptyText={t('checkin.empty')}
        filters={
          <>
            <Form.Input
              id="punch-keyword"
              label={t('checkin.filters.person')}
              value={list.draft.q}
              onChange={(_, v) => list.setDraft({ q: v.value })}
              data-testid="punch-keyword"
            />
            <SelectField
              label={t('checkin.filters.department')}
              value={list.draft.dept}
              onChange={(dept) => list.setDraft({ dept })}
              options={departments.map((d) => ({ value: d.departmentId, text: d.name }))}
              emptyText={t('checkin.filters.all')}
              data-testid="punch-department"
            />
            <SelectField
              label={t('checkin.filters.place')}
              value={list.draft.place}
              onChange={(place) => list.setDraft({ place })}
              options={[
                { value: 'in', text: t('checkin.filters.inPlace') },
                { value: 'out', text: t('checkin.filters.outOfPlace') },
              ]}
              emptyText={t('checkin.filters.all')}
              data-testid="punch-place"
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
