import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { MAX_LIMIT } from '@pm/shared';
import { deleteDepartments, fetchDepartment, fetchDepartments, type DepartmentRow } from '../../api';
import { ListScreen, type ListColumn } from '../../list/components/ListScreen';
import { useKeywordList } from '../../list/hooks/useKeywordList';
import { DepartmentDialog } from './DepartmentDialog';

/** The department tree as a list in tree order (level shown by indent): add, edit (`?open=`), delete. */
export function DepartmentTab() {
  const { t } = useTranslation();
  const [adding, setAdding] = useState(false);
  const [all, setAll] = useState<DepartmentRow[]>([]);
  const {
    list,
    record: editing,
    remove,
  } = useKeywordList<DepartmentRow>({
    fetchPage: fetchDepartments,
    fetchRecord: fetchDepartment,
    deleteRows: deleteDepartments,
  });

  useEffect(() => {
    const abort = new AbortController();
    fetchDepartments({ page: 1, limit: MAX_LIMIT }, abort.signal).then(
      (d) => setAll(d.list),
      () => undefined,
    );
    return () => abort.abort();
  }, [list.data]);

  const columns: ListColumn<DepartmentRow>[] = [
    {
      key: 'name',
      header: t('enterprise.departments.fields.name'),
      cell: (r) => <span style={{ paddingInlineStart: `${(r.level - 1) * 1.25}rem` }}>{r.name}</span>,
    },
    { key: 'level', header: t('enterprise.departments.fields.level'), cell: (r) => r.level },
    {
      key: 'parent',
      header: t('enterprise.departments.fields.parent'),
      cell: (r) => r.parentName ?? t('enterprise.departments.topLevel'),
    },
    { key: 'principal', header: t('enterprise.departments.fields.principal'), cell: (r) => r.principalName ?? '–' },
    { key: 'staff', header: t('enterprise.departments.fields.staffCount'), cell: (r) => r.staffCount },
    {
      key: 'actions',
      header: t('common.operate'),
      cell: (r) => (
        <span className="enterprise-actions">
          <Link
            to={list.linkTo({ open: r.departmentId })}
            className="ui mini basic primary button"
            aria-label={t('enterprise.departments.edit', { name: r.name })}
            data-testid="open-detail"
          >
            {t('common.edit')}
          </Link>
          <Button
            size="mini"
            basic
            negative
            aria-label={t('enterprise.departments.delete', { name: r.name })}
            onClick={() =>
              void remove(
                [r.departmentId],
                t('enterprise.departments.confirmDelete', { name: r.name }),
                t('enterprise.departments.deleted', { name: r.name }),
              )
            }
            data-testid={`department-delete-${r.departmentId}`}
          >
            {t('common.delete')}
          </Button>
        </span>
      ),
    },
  ];

  return (
    <div data-testid="department-tab">
      <div className="enterprise-toolbar">
        <Button
          primary
          icon="plus"
          content={t('enterprise.departments.add')}
          onClick={() => setAdding(true)}
          data-testid="department-add"
        />
      </div>
      <ListScreen
        list={list}
        columns={columns}
        rowKey={(r) => r.departmentId}
        filters={
          <Form.Input
            id="department-keyword"
            label={t('enterprise.departments.keyword')}
            value={list.draft.q}
            onChange={(_, v) => list.setDraft({ q: v.value })}
            data-testid="department-keyword"
          />
        }
        tableTestId="department-table"
        rowTestId={(r) => `department-row-${r.departmentId}`}
      >
        {adding && (
          <DepartmentDialog
            department={null}
            departments={all}
            onClose={() => setAdding(false)}
            onSaved={() => {
              setAdding(false);
              list.reload();
            }}
          />
        )}
        {editing && (
          <DepartmentDialog
            key={editing.departmentId}
            department={editing}
            departments={all}
            onClose={list.closeRecord}
            onSaved={() => {
              list.closeRecord();
              list.reload();
            }}
          />
        )}
      </ListScreen>
    </div>
  );
}
