import { useEffect, useState } from 'react';
import { Button, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { MAX_LIMIT } from '@pm/shared';
import { fetchStaff, saveDepartment, type DepartmentRow, type StaffRow } from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { showToast } from '../../ui/states/toasts';

/** Add or edit a department (SPEC §2 "add/edit department"; §5: name and principal required). */
export function DepartmentDialog({
  department,
  departments,
  onClose,
  onSaved,
}: {
  department: DepartmentRow | null;
  departments: DepartmentRow[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(department?.name ?? '');
  const [parentId, setParentId] = useState(department?.parentId ? String(department.parentId) : '');
  const [principal, setPrincipal] = useState(department?.principalPersonId ? String(department.principalPersonId) : '');
  const [staff, setStaff] = useState<StaffRow[]>([]);
  const [shown, setShown] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    const abort = new AbortController();
    fetchStaff({ page: 1, limit: MAX_LIMIT }, abort.signal).then(
      (s) => setStaff(s.list),
      () => undefined,
    );
    return () => abort.abort();
  }, []);

  const errors = {
    name: name.trim() ? null : t('enterprise.departments.errors.name'),
    principal: principal ? null : t('enterprise.departments.errors.principal'),
  };
  const submit = async () => {
    setShown(true);
    if (errors.name || errors.principal || saving) return;
    setSaving(true);
    try {
      await saveDepartment({
        departmentId: department?.departmentId,
        name: name.trim(),
        parentId: parentId ? Number(parentId) : null,
        principalPersonId: Number(principal),
      } as Parameters<typeof saveDepartment>[0]);
      showToast('success', t('enterprise.departments.saved'), { key: 'department-saved' });
      onSaved();
    } catch {
      // told by the data-access layer
    } finally {
      setSaving(false);
    }
  };

  return (
    <DraggableDialog
      open
      onClose={onClose}
      title={
        department
          ? t('enterprise.departments.editTitle', { name: department.name })
          : t('enterprise.departments.addTitle')
      }
      initialFocus="#department-name"
      actions={
        <>
          <Button type="button" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            primary
            type="submit"
            form="department-form"
            loading={saving}
            disabled={saving}
            data-testid="department-save"
          >
            {t('common.save')}
          </Button>
        </>
      }
    >
      <Form id="department-form" onSubmit={() => void submit()} noValidate>
        <Form.Input
          id="department-name"
          label={t('enterprise.departments.fields.name')}
          required
          maxLength={50}
          value={name}
          onChange={(_, v) => setName(v.value)}
          error={shown && errors.name ? { content: errors.name, pointing: 'above' } : undefined}
          data-testid="department-name"
        />
        <Form.Field>
          <label htmlFor="department-parent">{t('enterprise.departments.fields.parent')}</label>
          <select
            id="department-parent"
            value={parentId}
            onChange={(e) => setParentId(e.target.value)}
            data-testid="department-parent"
          >
            <option value="">{t('enterprise.departments.topLevel')}</option>
            {departments
              .filter((d) => d.departmentId !== department?.departmentId)
              .map((d) => (
                <option key={d.departmentId} value={d.departmentId}>
                  {'\u2003'.repeat(d.level - 1)}
                  {d.name}
                </option>
              ))}
          </select>
        </Form.Field>
        <Form.Field required error={shown && !!errors.principal}>
          <label htmlFor="department-principal">{t('enterprise.departments.fields.principal')}</label>
          <select
            id="department-principal"
            value={principal}
            onChange={(e) => setPrincipal(e.target.value)}
            data-testid="department-principal"
          >
            <option value="">{t('enterprise.choose')}</option>
            {staff.map((s) => (
              <option key={s.personId} value={s.personId}>
                {s.name}
                {s.staffNumber ? ` (${s.staffNumber})` : ''}
              </option>
            ))}
          </select>
          {shown && errors.principal && <div className="ui pointing above prompt label">{errors.principal}</div>}
        </Form.Field>
      </Form>
    </DraggableDialog>
  );
}
