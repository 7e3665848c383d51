import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { MAX_LIMIT } from '@pm/shared';
import {
  deleteStaff,
  fetchDepartments,
  fetchStaff,
  fetchStaffMember,
  type DepartmentRow,
  type StaffRow,
} from '../../api';
import { ListScreen, type ListColumn } from '../../list/components/ListScreen';
import { useKeywordList } from '../../list/hooks/useKeywordList';
import { StaffDialog } from './StaffDialog';
import { StaffImport } from './StaffImport';

/** The company's staff (page/v1): search, add, edit (`?open=<personCompanyId>`), delete the selected. */
export function StaffTab() {
  const { t } = useTranslation();
  const [adding, setAdding] = useState(false);
  const [departments, setDepartments] = useState<DepartmentRow[]>([]);
  const {
    list,
    selection,
    record: editing,
    changed,
    remove,
  } = useKeywordList<StaffRow>({ fetchPage: fetchStaff, fetchRecord: fetchStaffMember, deleteRows: deleteStaff });
  const removeStaff = (ids: number[], question: string) =>
    remove(ids, question, t('enterprise.staff.deleted', { count: ids.length }));

  useEffect(() => {
    const abort = new AbortController();
    fetchDepartments({ page: 1, limit: MAX_LIMIT }, abort.signal).then(
      (d) => setDepartments(d.list),
      () => undefined,
    );
    return () => abort.abort();
  }, []);

  const columns: ListColumn<StaffRow>[] = [
    {
      key: 'select',
      header: t('enterprise.select'),
      cell: (r) => (
        <input
          type="checkbox"
          aria-label={t('enterprise.staff.selectRow', { name: r.name })}
          checked={selection.ids.has(r.personCompanyId)}
          onChange={(e) => selection.toggle(r.personCompanyId, e.target.checked)}
          data-testid={`staff-select-${r.personCompanyId}`}
        />
      ),
    },
    { key: 'staffNumber', header: t('enterprise.staff.fields.staffNumber'), cell: (r) => r.staffNumber ?? '–' },
    { key: 'name', header: t('enterprise.staff.fields.name'), cell: (r) => r.name },
    {
      key: 'gender',
      header: t('enterprise.staff.fields.gender'),
      cell: (r) => t(r.gender === 2 ? 'enterprise.staff.gender2' : 'enterprise.staff.gender1'),
    },
    { key: 'position', header: t('enterprise.staff.fields.position'), cell: (r) => r.position ?? '–' },
    {
      key: 'department',
      header: t('enterprise.staff.fields.department'),
      cell: (r) => r.departmentName ?? t('enterprise.staff.noDepartment'),
    },
    { key: 'tel', header: t('enterprise.staff.fields.tel'), cell: (r) => r.tel ?? '–' },
    { key: 'account', header: t('enterprise.staff.fields.account'), cell: (r) => r.username ?? '–' },
    {
      key: 'actions',
      header: t('common.operate'),
      cell: (r) => (
        <span className="enterprise-actions">
          <Link
            to={list.linkTo({ open: r.personCompanyId })}
            className="ui mini basic primary button"
            aria-label={t('enterprise.staff.edit', { name: r.name })}
            data-testid="open-detail"
          >
            {t('common.edit')}
          </Link>
          <Button
            size="mini"
            basic
            negative
            aria-label={t('enterprise.staff.delete', { name: r.name })}
            onClick={() => void removeStaff([r.personCompanyId], t('enterprise.staff.confirmDelete', { name: r.name }))}
            data-testid={`staff-delete-${r.personCompanyId}`}
          >
            {t('common.delete')}
          </Button>
        </span>
      ),
    },
  ];

  return (
    <div data-testid="staff-tab">
      <div className="enterprise-toolbar">
        <Button
          primary
          icon="plus"
          content={t('enterprise.staff.add')}
          onClick={() => setAdding(true)}
          data-testid="staff-add"
        />
        <Button
          basic
          negative
          icon="trash alternate outline"
          content={t('enterprise.deleteSelected')}
          onClick={() =>
            void removeStaff(
              [...selection.ids],
              t('enterprise.staff.confirmDeleteSelected', { count: selection.ids.size }),
            )
          }
          data-testid="staff-delete-selected"
        />
        <StaffImport onImported={changed} />
      </div>
      <ListScreen
        list={list}
        columns={columns}
        rowKey={(r) => r.personCompanyId}
        filters={
          <Form.Input
            id="staff-keyword"
            label={t('enterprise.staff.keyword')}
            value={list.draft.q}
            onChange={(_, v) => list.setDraft({ q: v.value })}
            data-testid="staff-keyword"
          />
        }
        tableTestId="staff-table"
        rowTestId={(r) => `staff-row-${r.personCompanyId}`}
      >
        {adding && (
          <StaffDialog
            staff={null}
            departments={departments}
            onClose={() => setAdding(false)}
            onSaved={() => {
              setAdding(false);
              changed();
            }}
          />
        )}
        {editing && (
          <StaffDialog
            key={editing.personCompanyId}
            staff={editing}
            departments={departments}
            onClose={list.closeRecord}
            onSaved={() => {
              list.closeRecord();
              changed();
            }}
          />
        )}
      </ListScreen>
    </div>
  );
}
