import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Button, Form, Message } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { fetchMenuTree, fetchRoleInfo, saveRole, type MenuNode } from '../../api';
import { session } from '../../auth/states/session';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { showToast } from '../../ui/states/toasts';
import { checkedIds, MenuTree, toggleMenu } from './MenuTree';

const ROLE_VALUE = /^[A-Za-z0-9_]+$/;

/**
 * Add or edit a role (SPEC §2 "add/edit role"): name, role value, remark and its menus. The tree
 * is the route table as GET /base/sysmenu/all/menu answers it; a menu whose permission the editor
 * does not hold cannot be checked (the api refuses such a role too: 403).
 */
export function RoleDialog({
  roleId,
  onClose,
  onSaved,
}: {
  roleId: number | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { roleId: ownRoleId, perms } = useSnapshot(session);
  const [draft, setDraft] = useState({ roleName: '', roleValue: '', remark: '' });
  const [tree, setTree] = useState<MenuNode[] | null>(null);
  const [checked, setChecked] = useState<Set<number>>(new Set());
  const [shown, setShown] = useState(false);
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<typeof draft>) => setDraft((d) => ({ ...d, ...patch }));

  useEffect(() => {
    const abort = new AbortController();
    // A new role starts from the tree as the editor's own role sees it, nothing checked.
    const treeOf = roleId ?? ownRoleId;
    if (!treeOf) return;
    Promise.all([
      fetchMenuTree(treeOf, abort.signal),
      roleId ? fetchRoleInfo(roleId, abort.signal) : Promise.resolve(null),
    ]).then(
      ([nodes, info]) => {
        setTree(nodes);
        setChecked(roleId ? checkedIds(nodes) : new Set());
        if (info) setDraft({ roleName: info.roleName, roleValue: info.roleValue, remark: info.remark ?? '' });
        // A role that cannot be read closes the dialog; a load given up (the dialog re-rendered) does not.
      },
      () => !abort.signal.aborted && onClose(),
    );
    return () => abort.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- loaded once per role
  }, [roleId, ownRoleId]);

  const grantable = (n: MenuNode) => n.perms === '' || perms.includes(n.perms);
  const errors = {
    roleName: draft.roleName.trim() ? null : 'enterprise.roles.errors.name',
    roleValue: !draft.roleValue.trim()
      ? 'enterprise.roles.errors.value'
      : ROLE_VALUE.test(draft.roleValue.trim())
        ? null
        : 'enterprise.roles.errors.valueFormat',
  };
  const pointing = (k: keyof typeof errors) =>
    shown && errors[k] ? { content: t(errors[k] as string), pointing: 'above' as const } : undefined;

  const submit = async () => {
    setShown(true);
    if (Object.values(errors).some(Boolean) || saving || !tree) return;
    setSaving(true);
    try {
      await saveRole({
        ...(roleId ? { roleId } : {}),
        roleName: draft.roleName.trim(),
        roleValue: draft.roleValue.trim(),
        remark: draft.remark.trim() || undefined,
        menuIds: [...checked],
      });
      showToast('success', t('enterprise.roles.saved', { name: draft.roleName.trim() }), { key: 'role-saved' });
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
      title={t(roleId ? 'enterprise.roles.editTitle' : 'enterprise.roles.addTitle')}
      initialFocus="#role-name"
      data-testid="role-dialog"
      actions={
        <>
          <Button type="button" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            primary
            type="submit"
            form="role-form"
            loading={saving}
            disabled={saving || !tree}
            data-testid="role-save"
          >
            {t('common.save')}
          </Button>
        </>
      }
    >
      <Form id="role-form" onSubmit={() => void submit()} noValidate>
        <Form.Input
          id="role-name"
          label={t('enterprise.roles.fields.name')}
          required
          maxLength={50}
          value={draft.roleName}
          onChange={(_, v) => set({ roleName: v.value })}
          error={pointing('roleName')}
        />
        <Form.Input
          id="role-value"
          label={t('enterprise.roles.fields.value')}
          required
          maxLength={50}
          value={draft.roleValue}
          onChange={(_, v) => set({ roleValue: v.value })}
          error={pointing('roleValue')}
        />
        <Form.Input
          id="role-remark"
          label={t('enterprise.roles.fields.remark')}
          maxLength={200}
          value={draft.remark}
          onChange={(_, v) => set({ remark: v.value })}
        />
        <fieldset className="enterprise-menus" data-testid="role-menus">
          <legend>{t('enterprise.roles.fields.menus')}</legend>
          <p className="enterprise-menu-note">{t('enterprise.roles.menusHelp')}</p>
          {tree ? (
            <MenuTree
              nodes={tree}
              checked={checked}
              grantable={grantable}
              onToggle={(menuId, on) => setChecked((c) => toggleMenu(tree, c, menuId, on, grantable))}
            />
          ) : (
            <Message info content={t('common.loading')} />
          )}
        </fieldset>
      </Form>
    </DraggableDialog>
  );
}
