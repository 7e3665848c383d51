import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { PERMISSIONS, type MenuNode } from '@pm/shared';
import { changeLanguage, i18n } from '../../i18n/i18n';
import { MenuTree, permissionNameKey } from '../components/MenuTree';

const node = (menuId: number, name: string, perms: string, children: MenuNode[] = []): MenuNode => ({
  menuId,
  parentId: null,
  name,
  path: '/complaints-suggestions/index',
  perms,
  hidden: false,
  checked: false,
  children,
});

// A screen (its route title) with two operate authorities (the api names those by their code).
const tree = [
  node(1, 'complaintsSuggestions', 'complain:list', [
    node(2, 'complain:view', 'complain:view'),
    node(3, 'complain:update', 'complain:update'),
  ]),
];
const languages = ['en', 'zh-CN', 'zh-TW'] as const;

afterEach(cleanup);
afterAll(() => changeLanguage('en'));

describe('the menu tree of the role dialog names its permissions (issue 30)', () => {
  it.each([
    ['en', 'Complaints and suggestions', 'View a complaint', "Change a complaint's status"],
    ['zh-CN', '投诉建议', '查看投诉详情', '更改投诉状态'],
    ['zh-TW', '投訴建議', '查看投訴詳情', '更改投訴狀態'],
  ] as const)(
    'when the tree is shown in %s, then screens and operate authorities show their names, the codes only as hints',
    async (language, screenName, view, update) => {
      await changeLanguage(language);
      render(<MenuTree nodes={tree} checked={new Set()} grantable={() => true} onToggle={() => undefined} />);
      const labelOf = (id: number) => document.querySelector(`label[for="menu-${id}"]`)!;
      expect(labelOf(1).textContent).toBe(`${screenName}complain:list`);
      expect(labelOf(2).textContent).toBe(`${view}complain:view`);
      expect(labelOf(3).textContent).toBe(`${update}complain:update`);
      // The checkbox is named by the permission's name (what a screen reader says).
      expect(screen.getByRole('checkbox', { name: new RegExp(`^${view}`) })).toBeTruthy();
    },
  );

  it('when any permission code is looked up, then it has a name in every language', async () => {
    for (const language of languages) {
      await changeLanguage(language);
      for (const code of PERMISSIONS) {
        const key = permissionNameKey(code);
        expect(i18n.exists(key, { lng: language, fallbackLng: false }), `${language} ${code}`).toBe(true);
        expect(i18n.t(key)).not.toBe(code);
      }
    }
  });
});
