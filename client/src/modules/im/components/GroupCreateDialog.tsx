import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Form } from 'semantic-ui-react';
import { createGroup } from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import type { PickablePerson } from '../hooks/usePersonSearch';
import { PersonPicker } from './PersonPicker';

/** SPEC §2 "group chat creation": a name and at least one member (SPEC §5), then the new group opens. */
export function GroupCreateDialog({
  open,
  me,
  initial = [],
  onClose,
  onCreated,
}: {
  open: boolean;
  me: number;
  initial?: PickablePerson[];
  onClose: () => void;
  onCreated: (groupId: number) => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [members, setMembers] = useState<PickablePerson[]>(initial);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const nameError = tried && !name.trim() ? t('im.errors.groupNameRequired') : undefined;
  const membersError = tried && members.length === 0 ? t('im.errors.membersRequired') : undefined;
  const submit = async () => {
    setTried(true);
    if (!name.trim() || members.length === 0) return;
    setBusy(true);
    try {
      const { groupId } = await createGroup(
        name.trim(),
        members.map((m) => m.personId),
      );
      setName('');
      setMembers([]);
      setTried(false);
      onCreated(groupId);
    } catch {
      // the error toast says why
    } finally {
      setBusy(false);
    }
  };
  return (
    <DraggableDialog
      open={open}
      title={t('im.createGroup')}
      onClose={onClose}
      data-testid="group-create-dialog"
      actions={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button
            primary
            loading={busy}
            disabled={busy}
            onClick={() => void submit()}
            data-testid="group-create-submit"
          >
            {t('im.actions.create')}
          </Button>
        </>
      }
    >
      <Form onSubmit={() => void submit()}>
        <Form.Input
          id="group-name"
          label={t('im.groupName')}
          value={name}
          maxLength={50}
          required
          error={nameError ? { content: nameError, pointing: 'above' } : undefined}
          onChange={(_, d) => setName(String(d.value))}
          data-testid="group-name"
        />
        <PersonPicker selected={members} onChange={setMembers} exclude={[me]} error={membersError} />
      </Form>
    </DraggableDialog>
  );
}
