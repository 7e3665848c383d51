import { useEffect, useState } from 'react';
import { Button, Image, Icon, Loader, Table } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { AVATAR_SIZE_PX, Gender } from '@pm/shared';
import { fetchPerson, imageUrl, type PersonInfo } from '../../api';
import { session } from '../../auth/states/session';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { enumLabel } from '../../ui/utils/enumLabels';
import { EditProfileDialog } from './EditProfileDialog';

/** Profile view (avatar, name, gender) with the edit button (SPEC §2). */
export function ProfileDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const snap = useSnapshot(session);
  const [person, setPerson] = useState<PersonInfo | null>(null);
  const [editing, setEditing] = useState(false);

  useEffect(() => {
    if (!open || snap.pId === undefined) return;
    const abort = new AbortController();
    fetchPerson(snap.pId, abort.signal).then(setPerson, () => undefined);
    return () => abort.abort();
  }, [open, snap.pId, editing]);

  const avatar = imageUrl(person?.images?.[0]?.url || snap.avatar);
  const gender = enumLabel(t, Gender, person?.gender) || '—';
  return (
    <>
      <DraggableDialog
        open={open && !editing}
        onClose={onClose}
        title={t('profile.title')}
        size="tiny"
        data-testid="profile-dialog"
      >
        {!person ? (
          <Loader active inline="centered" />
        ) : (
          <div className="profile-view">
            {avatar ? (
              <Image
                src={avatar}
                alt={t('profile.avatar')}
                circular
                style={{ width: AVATAR_SIZE_PX, height: AVATAR_SIZE_PX }}
                centered
              />
            ) : (
              <Icon name="user circle" size="massive" />
            )}
            <Table definition compact unstackable>
              <Table.Body>
                <Table.Row>
                  <Table.Cell collapsing>{t('profile.name')}</Table.Cell>
                  <Table.Cell data-testid="profile-name">{person.name}</Table.Cell>
                </Table.Row>
                <Table.Row>
                  <Table.Cell>{t('profile.gender')}</Table.Cell>
                  <Table.Cell>{gender}</Table.Cell>
                </Table.Row>
              </Table.Body>
            </Table>
            <Button primary onClick={() => setEditing(true)} data-testid="profile-edit">
              <Icon name="edit" /> {t('profile.edit')}
            </Button>
          </div>
        )}
      </DraggableDialog>
      {editing && person && <EditProfileDialog person={person} onClose={() => setEditing(false)} />}
    </>
  );
}
