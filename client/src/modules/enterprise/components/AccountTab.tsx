import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Button, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import {
  changeAccountRole,
  deleteAccounts,
  endAccountSessions,
  fetchAccounts,
  fetchRoles,
  resetAccountPassword,
  type AccountRow,
} from '../../api';
import { session } from '../../auth/states/session';
import { ListScreen, type ListColumn } from '../../list/components/ListScreen';
import { useListController } from '../../list/hooks/useListController';
import { confirm } from '../../ui/states/confirms';
import { showToast } from '../../ui/states/toasts';
import { AccountDialog } from './AccountDialog';

const FILTERS = { q: '' };

/**
 * Console accounts: search, add, change a role, reset a password (shown once), end every session
 * (a wall screen's self-renewing one), delete. Never one's own.
 */
export function AccountTab() {
  const { t } = useTranslation();
  const { companyId, accId } = useSnapshot(session);
  const [adding, setAdding] = useState(false);
  const [roles, setRoles] = useState<{ roleId: number; roleName: string }[]>([]);
  const [newPassword, setNewPassword] = useState<{ username: string; password: string } | null>(null);
  const list = useListController<AccountRow, typeof FILTERS>({
    filters: FILTERS,
    fetchList: ({ page, limit, filters }, signal) =>
      fetchAccounts({ page, limit, keyword: filters.q || undefined }, signal),
  });

  useEffect(() => {
    if (!companyId) return;
    const abort = new AbortController();
    fetchRoles(companyId, abort.signal).then(setRoles, () => undefined);
    return () => abort.abort();
  }, [companyId]);

  const act = async (run: () => Promise<unknown>, done: string) => {
    try {
      await run();
      showToast('success', done);
      list.reload();
    } catch {
      // told by the data-access layer
    }
  };

  const columns: ListColumn<AccountRow>[] = [
    { key: 'username', header: t('enterprise.accounts.fields.username'), cell: (r) => r.username },
    { key: 'name', header: t('enterprise.staff.fields.name'), cell: (r) => r.name },
    {
      key: 'role',
      header: t('enterprise.accounts.fields.role'),
      cell: (r) =>
        r.accId === accId ? (
          (r.roleName ?? '–')
        ) : (
          <select
            aria-label={t('enterprise.accounts.roleOf', { name: r.username })}
            value={r.roleId ?? ''}
            onChange={(e) =>
              void act(
                () => changeAccountRole(r.accId, Number(e.target.value)),
                t('enterprise.accounts.roleChanged', { name: r.username }),
              )
            }
            data-testid={`account-role-${r.accId}`}
          >
            {r.roleId === null && <option value="">{t('enterprise.choose')}</option>}
            {roles.map((role) => (
              <option key={role.roleId} value={role.roleId}>
                {role.roleName}
              </option>
            ))}
          </select>
        ),
    },
    {
      key: 'enabled',
      header: t('enterprise.accounts.fields.state'),
      cell: (r) => t(r.enabled ? 'enterprise.accounts.enabled' : 'enterprise.accounts.disabled'),
    },
    {
      key: 'actions',
      header: t('common.operate'),
      cell: (r) =>
        r.accId === accId ? (
          t('enterprise.accounts.you')
        ) : (
          <span className="enterprise-actions">
            <Button
              size="mini"
              basic
              aria-label={t('enterprise.accounts.reset', { name: r.username })}
              onClick={async () => {
                if (!(await confirm(t('enterprise.accounts.confirmReset', { name: r.username })))) return;
                try {
                  const { password } = await resetAccountPassword(r.accId);
                  setNewPassword({ username: r.username, password });
                } catch {
                  // told by the data-access layer
                }
              }}
              data-testid={`account-reset-${r.accId}`}
            >
              {t('enterprise.accounts.resetShort')}
            </Button>
            <Button
              size="mini"
              basic
              aria-label={t('enterprise.accounts.endSessions', { name: r.username })}
              onClick={async () => {
                if (!(await confirm(t('enterprise.accounts.confirmEndSessions', { name: r.username })))) return;
                await act(
                  () => endAccountSessions(r.accId),
                  t('enterprise.accounts.sessionsEnded', { name: r.username }),
                );
              }}
              data-testid={`account-end-sessions-${r.accId}`}
            >
              {t('enterprise.accounts.endSessionsShort')}
            </Button>
            <Button
              size="mini"
              basic
              negative
              aria-label={t('enterprise.accounts.delete', { name: r.username })}
              onClick={async () => {
                if (!(await confirm(t('enterprise.accounts.confirmDelete', { name: r.username })))) return;
                await act(() => deleteAccounts([r.accId]), t('enterprise.accounts.deleted', { name: r.username }));
              }}
              data-testid={`account-delete-${r.accId}`}
            >
              {t('common.delete')}
            </Button>
          </span>
        ),
    },
  ];

  return (
    <div data-testid="account-tab">
      <div className="enterprise-toolbar">
        <Button
          primary
          icon="plus"
          content={t('enterprise.accounts.add')}
          onClick={() => setAdding(true)}
          data-testid="account-add"
        />
      </div>
      {newPassword && (
        <div className="ui info message" role="status" data-testid="account-new-password">
          {t('enterprise.accounts.newPassword', newPassword)}{' '}
          <Button size="mini" basic onClick={() => setNewPassword(null)}>
            {t('enterprise.accounts.dismiss')}
          </Button>
        </div>
      )}
      <ListScreen
        list={list}
        columns={columns}
        rowKey={(r) => r.accId}
        filters={
          <Form.Input
            id="account-keyword"
            label={t('enterprise.accounts.keyword')}
            value={list.draft.q}
            onChange={(_, v) => list.setDraft({ q: v.value })}
          />
        }
        tableTestId="account-table"
        rowTestId={(r) => `account-row-${r.accId}`}
      >
        {adding && (
          <AccountDialog
            roles={roles}
            onClose={() => setAdding(false)}
            onSaved={() => {
              setAdding(false);
              list.reload();
            }}
          />
        )}
      </ListScreen>
    </div>
  );
}
