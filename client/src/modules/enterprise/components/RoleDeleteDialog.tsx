import { useState } from 'react';
import { Button, Form, Message } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { ApiError, deleteRole, type RoleRow } from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { showToast } from '../../ui/states/toasts';

/**
 * Deletes a role. While someone holds it the api refuses (its message is shown here), unless a
 * role to move the holders to is chosen: they get it in the same step.
 */
export function RoleDeleteDialog({
  role,
  roles,
  onClose,
  onDeleted,
}: {
  role: RoleRow;
  roles: readonly RoleRow[];
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const [moveTo, setMoveTo] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (busy) return;
    setBusy(true);
    setRefusal(null);
    try {
      const { moved } = await deleteRole(role.roleId, moveTo ? Number(moveTo) : undefined);
      showToast('success', t('enterprise.roles.deleted', { name: role.roleName, count: moved }));
      onDeleted();
    } catch (e) {
      setRefusal(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <DraggableDialog
      open
      onClose={onClose}
      title={t('enterprise.roles.deleteTitle', { name: role.roleName })}
      initialFocus="#role-move-to"
      data-testid="role-delete-dialog"
      actions={
        <>
          <Button type="button" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            negative
            type="submit"
            form="role-delete-form"
            loading={busy}
            disabled={busy}
            data-testid="role-delete-confirm"
          >
            {t('common.delete')}
          </Button>
        </>
      }
    >
      <Form id="role-delete-form" onSubmit={() => void submit()}>
        <p>{t('enterprise.roles.deleteHolders', { count: role.personCount })}</p>
        <Form.Field>
          <label htmlFor="role-move-to">{t('enterprise.roles.moveTo')}</label>
          <select id="role-move-to" value={moveTo} onChange={(e) => setMoveTo(e.target.value)}>
            <option value="">{t('enterprise.roles.moveNone')}</option>
            {roles
              .filter((r) => r.roleId !== role.roleId)
              .map((r) => (
                <option key={r.roleId} value={r.roleId}>
                  {r.roleName}
                </option>
              ))}
          </select>
        </Form.Field>
        {refusal && <Message negative role="alert" content={refusal} data-testid="role-delete-refused" />}
      </Form>
    </DraggableDialog>
  );
}
