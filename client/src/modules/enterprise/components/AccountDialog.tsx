import { useState } from 'react';
import { Button, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { createAccount } from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { showToast } from '../../ui/states/toasts';

/** Add an account (SPEC §2 "add account"): account name, password (6 to 32 characters), the person's name, role. */
export function AccountDialog({
  roles,
  onClose,
  onSaved,
}: {
  roles: { roleId: number; roleName: string }[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState({ username: '', password: '', name: '', roleId: '' });
  const [shown, setShown] = useState(false);
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<typeof draft>) => setDraft((d) => ({ ...d, ...patch }));
  const errors = {
    username: draft.username.trim() ? null : 'validation.accountRequired',
    password:
      draft.password.length >= 6 && draft.password.length <= 32
        ? null
        : draft.password
          ? 'validation.passwordRule'
          : 'validation.passwordRequired',
    name: draft.name.trim() ? null : 'validation.nameRequired',
    roleId: draft.roleId ? null : 'enterprise.accounts.errors.role',
  };
  const pointing = (k: keyof typeof errors) =>
    shown && errors[k] ? { content: t(errors[k] as string), pointing: 'above' as const } : undefined;

  const submit = async () => {
    setShown(true);
    if (Object.values(errors).some(Boolean) || saving) return;
    setSaving(true);
    try {
      await createAccount({
        username: draft.username.trim(),
        password: draft.password,
        name: draft.name.trim(),
        roleId: Number(draft.roleId),
      });
      showToast('success', t('enterprise.accounts.saved'), { key: 'account-saved' });
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
      title={t('enterprise.accounts.addTitle')}
      initialFocus="#account-username"
      actions={
        <>
          <Button type="button" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            primary
            type="submit"
            form="account-form"
            loading={saving}
            disabled={saving}
            data-testid="account-save"
          >
            {t('common.save')}
          </Button>
        </>
      }
    >
      <Form id="account-form" onSubmit={() => void submit()} noValidate>
        <Form.Input
          id="account-username"
          label={t('enterprise.accounts.fields.username')}
          required
          maxLength={64}
          autoComplete="off"
          value={draft.username}
          onChange={(_, v) => set({ username: v.value })}
          error={pointing('username')}
        />
        <Form.Input
          id="account-password"
          type="password"
          label={t('enterprise.accounts.fields.password')}
          required
          maxLength={32}
          autoComplete="new-password"
          value={draft.password}
          onChange={(_, v) => set({ password: v.value })}
          error={pointing('password')}
        />
        <Form.Input
          id="account-name"
          label={t('enterprise.staff.fields.name')}
          required
          maxLength={100}
          value={draft.name}
          onChange={(_, v) => set({ name: v.value })}
          error={pointing('name')}
        />
        <Form.Field required error={!!pointing('roleId')}>
          <label htmlFor="account-role">{t('enterprise.accounts.fields.role')}</label>
          <select id="account-role" value={draft.roleId} onChange={(e) => set({ roleId: e.target.value })}>
            <option value="">{t('enterprise.choose')}</option>
            {roles.map((r) => (
              <option key={r.roleId} value={r.roleId}>
                {r.roleName}
              </option>
            ))}
          </select>
          {pointing('roleId') && <div className="ui pointing above prompt label">{t(errors.roleId as string)}</div>}
        </Form.Field>
      </Form>
    </DraggableDialog>
  );
}
