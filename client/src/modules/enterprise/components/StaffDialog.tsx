import { useState } from 'react';
import { Button, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { saveStaff, type DepartmentRow, type StaffRow } from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { showToast } from '../../ui/states/toasts';

interface Draft {
  name: string;
  gender: string;
  staffNumber: string;
  position: string;
  yearOfBirth: string;
  tel: string;
  departmentId: string;
}
type Field = keyof Draft;

const draftOf = (s: StaffRow | null): Draft => ({
  name: s?.name ?? '',
  gender: String(s?.gender ?? ''),
  staffNumber: s?.staffNumber ?? '',
  position: s?.position ?? '',
  yearOfBirth: s?.yearOfBirth ? String(s.yearOfBirth) : '',
  tel: s?.tel ?? '',
  departmentId: s?.departmentId ? String(s.departmentId) : '',
});

/** The form's problems by field (translation keys): SPEC §5's required name, gender, staff number, position, year of birth; numbers only. */
export function staffDraftErrors(d: Draft): Partial<Record<Field, string>> {
  const e: Partial<Record<Field, string>> = {};
  if (!d.name.trim()) e.name = 'enterprise.staff.errors.name';
  if (!d.gender) e.gender = 'enterprise.staff.errors.gender';
  if (!d.staffNumber.trim()) e.staffNumber = 'enterprise.staff.errors.staffNumber';
  if (!d.position.trim()) e.position = 'enterprise.staff.errors.position';
  if (!d.yearOfBirth.trim()) e.yearOfBirth = 'enterprise.staff.errors.yearOfBirth';
  else if (!/^\d{4}$/.test(d.yearOfBirth.trim())) e.yearOfBirth = 'validation.onlyNumbers';
  if (d.tel.trim() && !/^\+?\d[\d -]{1,18}\d$/.test(d.tel.trim())) e.tel = 'validation.onlyNumbers';
  return e;
}

/** Add or edit a staff member (SPEC §2 "add/edit staff" dialog). `staff` null: a new one. */
export function StaffDialog({
  staff,
  departments,
  onClose,
  onSaved,
}: {
  staff: StaffRow | null;
  departments: DepartmentRow[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(() => draftOf(staff));
  const [shown, setShown] = useState(false);
  const [saving, setSaving] = useState(false);
  const errors = staffDraftErrors(draft);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const pointing = (k: Field) =>
    shown && errors[k] ? { content: t(errors[k] as string), pointing: 'above' as const } : undefined;

  const submit = async () => {
    setShown(true);
    if (Object.keys(errors).length > 0 || saving) return;
    setSaving(true);
    try {
      await saveStaff({
        personCompanyId: staff?.personCompanyId,
        name: draft.name.trim(),
        gender: Number(draft.gender) as 1 | 2,
        staffNumber: draft.staffNumber.trim(),
        position: draft.position.trim(),
        yearOfBirth: Number(draft.yearOfBirth),
        tel: draft.tel.trim() || null,
        departmentId: draft.departmentId ? Number(draft.departmentId) : null,
      });
      showToast('success', t('enterprise.staff.saved'), { key: 'staff-saved' });
      onSaved();
    } catch {
      // told by the data-access layer
    } finally {
      setSaving(false);
    }
  };

  const text = (k: Field, label: string, extra: object = {}) => (
    <Form.Input
      id={`staff-${k}`}
      label={label}
      value={draft[k]}
      onChange={(_, v) => set({ [k]: v.value })}
      error={pointing(k)}
      data-testid={`staff-${k}`}
      {...extra}
    />
  );

  return (
    <DraggableDialog
      open
      onClose={onClose}
      title={staff ? t('enterprise.staff.editTitle', { name: staff.name }) : t('enterprise.staff.addTitle')}
      initialFocus="#staff-name"
      actions={
        <>
          <Button type="button" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button primary type="submit" form="staff-form" loading={saving} disabled={saving} data-testid="staff-save">
            {t('common.save')}
          </Button>
        </>
      }
    >
      <Form id="staff-form" onSubmit={() => void submit()} noValidate>
        {text('name', t('enterprise.staff.fields.name'), { required: true, maxLength: 100 })}
        <Form.Field required error={!!pointing('gender')}>
          <label htmlFor="staff-gender">{t('enterprise.staff.fields.gender')}</label>
          <select
            id="staff-gender"
            value={draft.gender}
            onChange={(e) => set({ gender: e.target.value })}
            data-testid="staff-gender"
          >
            <option value="">{t('enterprise.choose')}</option>
            <option value="1">{t('enterprise.staff.gender1')}</option>
            <option value="2">{t('enterprise.staff.gender2')}</option>
          </select>
          {pointing('gender') && <div className="ui pointing above prompt label">{t(errors.gender as string)}</div>}
        </Form.Field>
        {text('staffNumber', t('enterprise.staff.fields.staffNumber'), { required: true, maxLength: 30 })}
        {text('position', t('enterprise.staff.fields.position'), { required: true, maxLength: 50 })}
        {text('yearOfBirth', t('enterprise.staff.fields.yearOfBirth'), {
          required: true,
          maxLength: 4,
          inputMode: 'numeric',
        })}
        {text('tel', t('enterprise.staff.fields.tel'), { maxLength: 20, inputMode: 'tel' })}
        <Form.Field>
          <label htmlFor="staff-department">{t('enterprise.staff.fields.department')}</label>
          <select
            id="staff-department"
            value={draft.departmentId}
            onChange={(e) => set({ departmentId: e.target.value })}
            data-testid="staff-department"
          >
            <option value="">{t('enterprise.staff.noDepartment')}</option>
            {departments.map((d) => (
              <option key={d.departmentId} value={d.departmentId}>
                {'\u2003'.repeat(d.level - 1)}
                {d.name}
              </option>
            ))}
          </select>
        </Form.Field>
      </Form>
    </DraggableDialog>
  );
}
