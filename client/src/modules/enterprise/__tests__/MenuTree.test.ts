import { describe, expect, it } from 'vitest';
import type { MenuNode } from '@pm/shared';
import { checkedIds, subtreeIds, toggleMenu } from '../components/MenuTree';

const node = (menuId: number, perms: string, children: MenuNode[] = [], checked = false): MenuNode => ({
  menuId,
  parentId: null,
  name: perms || `page${menuId}`,
  path: `/p${menuId}`,
  perms,
  hidden: false,
  checked,
  children,
});

// A screen (1) with its page (2) and two operate authorities (3, 4); another screen (5).
const tree = [
  node(1, 'complain:list', [node(2, 'complain:list', [node(3, 'complain:view'), node(4, 'complain:update')])]),
  node(5, 'bulletin:list', [], true),
];
const all = () => true;

describe('the menu tree of a role', () => {
  it('when a screen is checked, then its pages and operate authorities are checked with it', () => {
    expect([...toggleMenu(tree, new Set(), 1, true, all)].sort()).toEqual([1, 2, 3, 4]);
  });

  it('when an operate authority is checked, then the screens above it are checked too', () => {
    expect([...toggleMenu(tree, new Set(), 3, true, all)].sort()).toEqual([1, 2, 3]);
  });

  it('when a screen is unchecked, then its subtree is unchecked and the rest stays', () => {
    expect([...toggleMenu(tree, new Set([1, 2, 3, 4, 5]), 2, false, all)].sort()).toEqual([1, 5]);
  });

  it('when the editor does not hold a permission, then its menu is never checked by a parent', () => {
    const mine = (n: MenuNode) => n.perms !== 'complain:update';
    expect([...toggleMenu(tree, new Set(), 1, true, mine)].sort()).toEqual([1, 2, 3]);
  });

  it('when the tree is read, then the checked ids and subtrees are those of the answer', () => {
    expect([...checkedIds(tree)]).toEqual([5]);
    expect(subtreeIds(tree[0])).toEqual([1, 2, 3, 4]);
  });
});
