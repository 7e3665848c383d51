import { useCallback, useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Button, Form, Table } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { fetchRolePersons, giveRole, takeRole, type RolePersonRow, type RoleRow } from '../../api';
import { session } from '../../auth/states/session';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { showToast } from '../../ui/states/toasts';

/** Persons listed at once; a keyword narrows longer lists. */
const SHOWN = 50;

/** The persons holding a role: listed, removed (one or the selected), and others assigned in batch. */
export function RoleHoldersDialog({ role, onClose }: { role: RoleRow; onClose: () => void }) {
  const { t } = useTranslation();
  const { companyId, accId: ownAccId } = useSnapshot(session);
  const [holders, setHolders] = useState<RolePersonRow[] | null>(null);
  const [candidates, setCandidates] = useState<RolePersonRow[] | null>(null);
  const [total, setTotal] = useState({ holders: 0, candidates: 0 });
  const [keyword, setKeyword] = useState('');
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    async (q: string, signal?: AbortSignal) => {
      const [h, c] = await Promise.all([
        fetchRolePersons({ roleId: role.roleId, holding: true, page: 1, limit: SHOWN }, signal),
        fetchRolePersons(
          { roleId: role.roleId, holding: false, keyword: q || undefined, page: 1, limit: SHOWN },
          signal,
        ),
      ]);
      setHolders(h.list);
      setCandidates(c.list);
      setTotal({ holders: h.total, candidates: c.total });
    },
    [role.roleId],
  );

  useEffect(() => {
    const abort = new AbortController();
    load('', abort.signal).catch(() => undefined);
    return () => abort.abort();
  }, [load]);

  const act = async (run: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await run();
      showToast('success', done);
      setPicked(new Set());
      await load(keyword);
    } catch {
      // told by the data-access layer
    } finally {
      setBusy(false);
    }
  };

  const assign = () => {
    if (picked.size === 0) {
      showToast('error', t('toast.selectAtLeastOne'));
      return;
    }
    if (!companyId) return;
    void act(
      () => giveRole(role.roleId, companyId, [...picked]),
      t('enterprise.roles.assigned', { count: picked.size, name: role.roleName }),
    );
  };

  return (
    <DraggableDialog
      open
      onClose={onClose}
      size="large"
      title={t('enterprise.roles.holdersTitle', { name: role.roleName })}
      data-testid="role-holders"
      actions={<Button onClick={onClose}>{t('common.close')}</Button>}
    >
      <h3 className="ui small header">{t('enterprise.roles.holding', { count: total.holders })}</h3>
      {holders && holders.length === 0 && <p>{t('enterprise.roles.noHolders')}</p>}
      {holders && holders.length > 0 && (
        <Table compact celled unstackable data-testid="role-holder-table">
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell scope="col">{t('enterprise.staff.fields.name')}</Table.HeaderCell>
              <Table.HeaderCell scope="col">{t('enterprise.accounts.fields.username')}</Table.HeaderCell>
              <Table.HeaderCell scope="col">{t('common.operate')}</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {holders.map((h) => (
              <Table.Row key={h.accId} data-testid={`role-holder-row-${h.accId}`}>
                <Table.Cell>{h.name}</Table.Cell>
                <Table.Cell>{h.username}</Table.Cell>
                <Table.Cell>
                  {h.accId === ownAccId ? (
                    t('enterprise.accounts.you')
                  ) : (
                    <Button
                      size="mini"
                      basic
                      negative
                      disabled={busy}
                      aria-label={t('enterprise.roles.removeHolder', { name: h.name })}
                      onClick={() =>
                        void act(
                          () => takeRole(role.roleId, [h.personId]),
                          t('enterprise.roles.removed', { name: h.name, role: role.roleName }),
                        )
                      }
                      data-testid={`role-remove-${h.accId}`}
                    >
                      {t('enterprise.roles.remove')}
                    </Button>
                  )}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      )}

      <h3 className="ui small header">{t('enterprise.roles.assignTitle')}</h3>
      <Form
        onSubmit={() => {
          setPicked(new Set());
          void load(keyword).catch(() => undefined);
        }}
      >
        <div className="enterprise-toolbar">
          <Form.Input
            id="role-candidate-keyword"
            label={t('enterprise.accounts.keyword')}
            value={keyword}
            onChange={(_, v) => setKeyword(v.value)}
          />
          <Button type="submit" basic icon="search" content={t('common.search')} />
        </div>
      </Form>
      {candidates && candidates.length === 0 && <p>{t('common.noMatch')}</p>}
      {candidates && candidates.length > 0 && (
        <Table compact celled unstackable data-testid="role-candidate-table">
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell scope="col">{t('enterprise.select')}</Table.HeaderCell>
              <Table.HeaderCell scope="col">{t('enterprise.staff.fields.name')}</Table.HeaderCell>
              <Table.HeaderCell scope="col">{t('enterprise.accounts.fields.username')}</Table.HeaderCell>
              <Table.HeaderCell scope="col">{t('enterprise.roles.currentRole')}</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {candidates.map((c) => (
              <Table.Row key={c.accId} data-testid={`role-candidate-row-${c.accId}`}>
                <Table.Cell>
                  <input
                    type="checkbox"
                    aria-label={t('enterprise.staff.selectRow', { name: c.name })}
                    checked={picked.has(c.personId)}
                    disabled={c.accId === ownAccId}
                    onChange={(e) =>
                      setPicked((p) => {
                        const next = new Set(p);
                        if (e.target.checked) next.add(c.personId);
                        else next.delete(c.personId);
                        return next;
                      })
                    }
                    data-testid={`role-pick-${c.accId}`}
                  />
                </Table.Cell>
                <Table.Cell>{c.name}</Table.Cell>
                <Table.Cell>{c.username}</Table.Cell>
                <Table.Cell>{c.roleName ?? '–'}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      )}
      {total.candidates > SHOWN && <p>{t('enterprise.roles.narrow', { count: total.candidates - SHOWN })}</p>}
      <Button
        primary
        disabled={busy}
        content={t('enterprise.roles.assign', { count: picked.size })}
        onClick={assign}
        data-testid="role-assign"
      />
    </DraggableDialog>
  );
}
