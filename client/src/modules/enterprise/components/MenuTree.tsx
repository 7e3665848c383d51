import { useTranslation } from 'react-i18next';
import type { MenuNode } from '../../api';

/** Every menu id of a subtree, the node's own first. */
export function subtreeIds(node: MenuNode): number[] {
  return [node.menuId, ...node.children.flatMap(subtreeIds)];
}

/** The ids of the checked menus of a tree (as GET /base/sysmenu/all/menu answers it). */
export function checkedIds(nodes: readonly MenuNode[]): Set<number> {
  const ids = new Set<number>();
  const walk = (n: MenuNode) => {
    if (n.checked) ids.add(n.menuId);
    n.children.forEach(walk);
  };
  nodes.forEach(walk);
  return ids;
}

/**
 * Checking a menu checks its whole subtree (the pages and their operate authorities) and its
 * parents (a page shows in the sidebar under its parent); unchecking it unchecks its subtree.
 * Menus the editor may not grant stay as they are.
 */
export function toggleMenu(
  nodes: readonly MenuNode[],
  checked: ReadonlySet<number>,
  menuId: number,
  on: boolean,
  grantable: (n: MenuNode) => boolean,
): Set<number> {
  const next = new Set(checked);
  const find = (list: readonly MenuNode[], path: MenuNode[]): MenuNode[] | null => {
    for (const n of list) {
      if (n.menuId === menuId) return [...path, n];
      const found = find(n.children, [...path, n]);
      if (found) return found;
    }
    return null;
  };
  const path = find(nodes, []);
  if (!path) return next;
  const node = path[path.length - 1];
  const walk = (n: MenuNode) => {
    if (grantable(n)) {
      if (on) next.add(n.menuId);
      else next.delete(n.menuId);
    }
    n.children.forEach(walk);
  };
  walk(node);
  if (on) for (const parent of path.slice(0, -1)) if (grantable(parent)) next.add(parent.menuId);
  return next;
}

/** The locale key of a permission code's name (`complain:view` → enterprise.permissions.complain.view). */
export const permissionNameKey = (code: string) => `enterprise.permissions.${code.replace(':', '.')}`;

/**
 * The menus of a role as a tree built from the console's route table: each screen (its title)
 * and under it its operate authority, each by its name in the person's language, with the
 * permission code beside it as a hint. Native checkboxes in nested lists, so the keyboard (Tab,
 * Space) works as everywhere.
 */
export function MenuTree({
  nodes,
  checked,
  grantable,
  onToggle,
}: {
  nodes: readonly MenuNode[];
  checked: ReadonlySet<number>;
  grantable: (n: MenuNode) => boolean;
  onToggle: (menuId: number, on: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const named = (key: string) => (i18n.exists(key) ? t(key) : null);
  // An operate authority is named by its code (the api names such menus by it); a screen by its title.
  const label = (n: MenuNode) =>
    (n.perms && n.name === n.perms ? named(permissionNameKey(n.perms)) : named(`routes.${n.name}`)) ?? n.name;
  const render = (list: readonly MenuNode[]) => (
    <ul className="enterprise-menu-tree">
      {list.map((n) => {
        const allowed = grantable(n);
        const id = `menu-${n.menuId}`;
        return (
          <li key={n.menuId}>
            <input
              type="checkbox"
              id={id}
              checked={checked.has(n.menuId)}
              disabled={!allowed}
              onChange={(e) => onToggle(n.menuId, e.target.checked)}
              data-testid={`menu-check-${n.perms && n.name === n.perms ? n.perms : n.path}`}
            />{' '}
            <label htmlFor={id}>
              {label(n)}
              {n.perms && label(n) !== n.perms && <code className="enterprise-perm">{n.perms}</code>}
              {!allowed && <span className="enterprise-menu-note"> ({t('enterprise.roles.notYours')})</span>}
            </label>
            {n.children.length > 0 && render(n.children)}
          </li>
        );
      })}
    </ul>
  );
  return render(nodes);
}
