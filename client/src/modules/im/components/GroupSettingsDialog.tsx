import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Form, List } from 'semantic-ui-react';
import {
  addMembers,
  dissolveGroup,
  fetchGroupInfo,
  leaveGroup,
  removeMembers,
  renameGroup,
  type ChatGroupInfo,
} from '../../api';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { confirm } from '../../ui/states/confirms';
import { showToast } from '../../ui/states/toasts';
import type { PickablePerson } from '../hooks/usePersonSearch';
import { ChatAvatar } from './ChatAvatar';
import { PersonPicker } from './PersonPicker';

/**
 * A group's settings: its name (the owner renames), members (anyone adds, the owner removes),
 * leave, and for the owner leave and dissolve (SPEC §4), each asked for confirmation first.
 */
export function GroupSettingsDialog({
  groupId,
  me,
  onClose,
  onLeft,
}: {
  groupId: number;
  me: number;
  onClose: () => void;
  onLeft: () => void;
}) {
  const { t } = useTranslation();
  const [info, setInfo] = useState<ChatGroupInfo | null>(null);
  const [name, setName] = useState('');
  const [adding, setAdding] = useState<PickablePerson[]>([]);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const abort = new AbortController();
    fetchGroupInfo(groupId, abort.signal).then(
      (g) => {
        setInfo(g);
        setName(g.groupName);
      },
      () => undefined,
    );
    return () => abort.abort();
  }, [groupId, version]);
  useLiveEvent((e) => {
    if (e.topic === 'chat' && e.payload.groupId === groupId && e.kind !== 'read') setVersion((v) => v + 1);
  });
  const owner = info?.ownerPersonId === me;
  const done = (key: string) => showToast('success', t(key));

  const rename = async () => {
    if (!name.trim() || name.trim() === info?.groupName) return;
    await renameGroup(groupId, name.trim()).then(
      () => done('im.toasts.renamed'),
      () => undefined,
    );
  };
  const add = async () => {
    if (adding.length === 0) return;
    await addMembers(
      groupId,
      adding.map((p) => p.personId),
    ).then(
      () => {
        setAdding([]);
        done('im.toasts.added');
      },
      () => undefined,
    );
  };
  const remove = async (personId: number, personName: string) => {
    if (!(await confirm(t('im.confirm.remove', { name: personName })))) return;
    await removeMembers(groupId, [personId]).then(
      () => done('im.toasts.removed'),
      () => undefined,
    );
  };
  const leave = async () => {
    if (!(await confirm(t(owner ? 'im.confirm.leaveOwner' : 'im.confirm.leave')))) return;
    await leaveGroup(groupId).then(
      () => {
        done('im.toasts.left');
        onLeft();
      },
      () => undefined,
    );
  };
  const dissolve = async () => {
    if (!(await confirm(t('im.confirm.dissolve')))) return;
    await dissolveGroup(groupId).then(
      () => {
        done('im.toasts.dissolved');
        onLeft();
      },
      () => undefined,
    );
  };

  return (
    <DraggableDialog
      open
      title={t('im.groupSettings')}
      onClose={onClose}
      data-testid="group-settings-dialog"
      actions={
        <>
          <Button basic onClick={() => void leave()} data-testid="group-leave">
            {t('im.actions.leave')}
          </Button>
          {owner && (
            <Button color="red" onClick={() => void dissolve()} data-testid="group-dissolve">
              {t('im.actions.leaveAndDissolve')}
            </Button>
          )}
          <Button onClick={onClose}>{t('im.actions.close')}</Button>
        </>
      }
    >
      {info && (
        <Form>
          <Form.Group widths="equal">
            <Form.Input
              id="group-rename"
              label={t('im.groupName')}
              value={name}
              maxLength={50}
              readOnly={!owner}
              onChange={(_, d) => setName(String(d.value))}
              data-testid="group-rename"
            />
          </Form.Group>
          {owner && (
            <Button
              type="button"
              size="small"
              onClick={() => void rename()}
              disabled={!name.trim() || name.trim() === info.groupName}
              data-testid="group-rename-save"
            >
              {t('im.actions.rename')}
            </Button>
          )}
          <h3 className="chat-dialog-heading">{t('im.memberCount', { count: info.members.length })}</h3>
          <List divided className="group-members" data-testid="group-members">
            {info.members.map((m) => (
              <List.Item key={m.personId}>
                <ChatAvatar url={m.images[0]?.url} size={28} />
                <span className="group-member-name">
                  {m.name}
                  {m.personId === info.ownerPersonId && ` · ${t('im.owner')}`}
                </span>
                {owner && m.personId !== me && (
                  <Button
                    type="button"
                    size="mini"
                    basic
                    onClick={() => void remove(m.personId, m.name)}
                    data-testid="group-remove-member"
                  >
                    {t('im.actions.remove')}
                  </Button>
                )}
              </List.Item>
            ))}
          </List>
          <PersonPicker selected={adding} onChange={setAdding} exclude={info.members.map((m) => m.personId)} />
          <Button
            type="button"
            size="small"
            primary
            disabled={adding.length === 0}
            onClick={() => void add()}
            data-testid="group-add-members"
          >
            {t('im.actions.addMembers')}
          </Button>
        </Form>
      )}
    </DraggableDialog>
  );
}
