import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { Button, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { fetchRolePage, fetchRoles, type RoleRow } from '../../api';
import { session } from '../../auth/states/session';
import { ListScreen, type ListColumn } from '../../list/components/ListScreen';
import { useKeywordList } from '../../list/hooks/useKeywordList';
import { formatTime } from '../../ui/utils/formatTime';
import { RoleDeleteDialog } from './RoleDeleteDialog';
import { RoleDialog } from './RoleDialog';
import { RoleHoldersDialog } from './RoleHoldersDialog';

/**
 * Roles (SPEC §2 role management): search, add, edit with its menus (`?open=<roleId>`), the
 * persons holding it, delete (refused while held, or with the holders moved). One's own role is
 * shown but not changed (the api refuses it too).
 */
export function RoleTab() {
  const { t } = useTranslation();
  const { companyId, roleId: ownRoleId } = useSnapshot(session);
  const [adding, setAdding] = useState(false);
  const [holdersOf, setHoldersOf] = useState<RoleRow | null>(null);
  const [deleting, setDeleting] = useState<RoleRow | null>(null);
  const [all, setAll] = useState<RoleRow[]>([]);
  const { list } = useKeywordList<RoleRow>({ fetchPage: fetchRolePage });

  useEffect(() => {
    if (!companyId) return;
    const abort = new AbortController();
    fetchRoles(companyId, abort.signal).then(setAll, () => undefined);
    return () => abort.abort();
  }, [companyId, list.data]);

  const columns: ListColumn<RoleRow>[] = [
    { key: 'name', header: t('enterprise.roles.fields.name'), cell: (r) => r.roleName },
    { key: 'value', header: t('enterprise.roles.fields.value'), cell: (r) => <code>{r.roleValue}</code> },
    {
      key: 'holders',
      header: t('enterprise.roles.fields.holders'),
      cell: (r) => (
        <Button
          size="mini"
          basic
          aria-label={t('enterprise.roles.holdersOf', { name: r.roleName, count: r.personCount })}
          onClick={() => setHoldersOf(r)}
          data-testid={`role-holders-${r.roleId}`}
        >
          {r.personCount}
        </Button>
      ),
    },
    { key: 'created', header: t('enterprise.roles.fields.created'), cell: (r) => formatTime(r.createTime) },
    {
      key: 'actions',
      header: t('common.operate'),
      cell: (r) =>
        r.roleId === ownRoleId ? (
          t('enterprise.roles.yours')
        ) : (
          <span className="enterprise-actions">
            <Link
              to={list.linkTo({ open: r.roleId })}
              className="ui mini basic primary button"
              aria-label={t('enterprise.roles.edit', { name: r.roleName })}
              data-testid="open-detail"
            >
              {t('common.edit')}
            </Link>
            <Button
              size="mini"
              basic
              negative
              aria-label={t('enterprise.roles.delete', { name: r.roleName })}
              onClick={() => setDeleting(r)}
              data-testid={`role-delete-${r.roleId}`}
            >
              {t('common.delete')}
            </Button>
          </span>
        ),
    },
  ];

  return (
    <div data-testid="role-tab">
      <div className="enterprise-toolbar">
        <Button
          primary
          icon="plus"
          content={t('enterprise.roles.add')}
          onClick={() => setAdding(true)}
          data-testid="role-add"
        />
      </div>
      <ListScreen
        list={list}
        columns={columns}
        rowKey={(r) => r.roleId}
        filters={
          <Form.Input
            id="role-keyword"
            label={t('enterprise.roles.keyword')}
            value={list.draft.q}
            onChange={(_, v) => list.setDraft({ q: v.value })}
          />
        }
        tableTestId="role-table"
        rowTestId={(r) => `role-row-${r.roleId}`}
      >
        {adding && (
          <RoleDialog
            roleId={null}
            onClose={() => setAdding(false)}
            onSaved={() => {
              setAdding(false);
              list.reload();
            }}
          />
        )}
        {list.open !== null && list.open !== ownRoleId && (
          <RoleDialog
            key={list.open}
            roleId={list.open}
            onClose={list.closeRecord}
            onSaved={() => {
              list.closeRecord();
              list.reload();
            }}
          />
        )}
        {holdersOf && (
          <RoleHoldersDialog
            role={holdersOf}
            onClose={() => {
              setHoldersOf(null);
              list.reload();
            }}
          />
        )}
        {deleting && (
          <RoleDeleteDialog
            role={deleting}
            roles={all}
            onClose={() => setDeleting(null)}
            onDeleted={() => {
              setDeleting(null);
              list.reload();
            }}
          />
        )}
      </ListScreen>
    </div>
  );
}
