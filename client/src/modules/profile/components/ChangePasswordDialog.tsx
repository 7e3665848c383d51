import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { changePassword } from '../../api';
import { leaveSignedOut, resetSession, session } from '../../auth/states/session';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { promptSessionEnded } from '../../auth/utils/sessionEndPrompt';
import { validateChangePassword } from '../utils/passwordRules';

type Field = 'oldPassword' | 'newPassword' | 'repeat';

/** Change password (SPEC §5 rules on blur); afterwards the session ends (SPEC §4). */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const snap = useSnapshot(session);
  const [values, setValues] = useState({ oldPassword: '', newPassword: '', repeat: '' });
  const [touched, setTouched] = useState<Record<Field, boolean>>({
    oldPassword: false,
    newPassword: false,
    repeat: false,
  });
  const [busy, setBusy] = useState(false);
  const errors = validateChangePassword(values);

  const close = () => {
    setValues({ oldPassword: '', newPassword: '', repeat: '' });
    setTouched({ oldPassword: false, newPassword: false, repeat: false });
    onClose();
  };

  const submit = async () => {
    setTouched({ oldPassword: true, newPassword: true, repeat: true });
    if (errors.oldPassword || errors.newPassword || errors.repeat || snap.pId === undefined) return;
    setBusy(true);
    try {
      await changePassword(snap.pId, values.oldPassword, values.newPassword);
    } catch {
      setBusy(false);
      return;
    }
    setBusy(false);
    close();
    const again = await promptSessionEnded(t('profile.passwordChanged'));
    // null: the gateway's "session ended" prompt came first and handles it.
    if (again === null) return;
    if (!again) return leaveSignedOut();
    resetSession();
    navigate('/login', { replace: true });
  };

  const field = (name: Field, label: string) => (
    <Form.Input
      id={`change-password-${name}`}
      type="password"
      label={label}
      name={name}
      autoComplete={name === 'oldPassword' ? 'current-password' : 'new-password'}
      value={values[name]}
      onChange={(_, d) => setValues((v) => ({ ...v, [name]: String(d.value) }))}
      onBlur={() => setTouched((s) => ({ ...s, [name]: true }))}
      error={touched[name] && errors[name] ? { content: t(errors[name]), pointing: 'above' } : undefined}
      data-testid={`password-${name}`}
    />
  );

  return (
    <DraggableDialog
      open={open}
      onClose={close}
      title={t('layout.changePassword')}
      size="tiny"
      data-testid="change-password-dialog"
      actions={
        <>
          <Button onClick={close}>{t('common.cancel')}</Button>
          <Button primary loading={busy} disabled={busy} onClick={() => void submit()} data-testid="password-submit">
            {t('common.submit')}
          </Button>
        </>
      }
    >
      <Form onSubmit={() => void submit()}>
        {field('oldPassword', t('profile.oldPassword'))}
        {field('newPassword', t('profile.newPassword'))}
        {field('repeat', t('profile.repeatPassword'))}
      </Form>
    </DraggableDialog>
  );
}
