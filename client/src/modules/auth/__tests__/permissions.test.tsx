import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { LAYOUT_ROUTES, PERMISSIONS, filterRoutes } from '@pm/shared';
import '../../i18n/i18n';
import { Sidebar } from '../../layout/components/Sidebar';
import { LayoutRoutes } from '../../layout/components/LayoutRoutes';
import { Can } from '../components/Can';
import { completeSession, resetSession, setToken } from '../states/session';
import { permissionsOf } from '../utils/permissionsOf';

function signInWith(perms: string[], roleValue: string) {
  setToken('t');
  completeSession({
    roleValue,
    name: 'x',
    pId: 1,
    accId: 1,
    avatar: '',
    roleId: 1,
    perms,
    routes: filterRoutes(LAYOUT_ROUTES, new Set(perms), roleValue),
  });
}
const staff = ['complain:list', 'complain:view', 'eventorder:list', 'unit:list', 'bulletin:list'];

function WhereAmI() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}

afterEach(() => {
  cleanup();
  resetSession();
});

describe('permission filtering', () => {
  it('when the role menus carry permission codes, then the person holds exactly those (ADMIN holds all)', () => {
    const menus = [{ perms: 'complain:list' }, { perms: null }, { perms: '' }, { perms: 'unit:list,unit:view' }];
    expect(permissionsOf(menus, 'STAFF').sort()).toEqual(['complain:list', 'unit:list', 'unit:view']);
    expect(permissionsOf([], 'ROLE_ADMIN')).toEqual([...PERMISSIONS]);
  });

  it('when <Can> wraps an element, then it shows only with the permission', () => {
    signInWith(staff, 'STAFF');
    render(
      <>
        <Can perm="complain:list">
          <button>list</button>
        </Can>
        <Can perm="complain:update">
          <button>update</button>
        </Can>
      </>,
    );
    expect(screen.queryByText('list')).toBeTruthy();
    expect(screen.queryByText('update')).toBeNull();
  });

  it('when staff and admin sidebars are compared, then staff lacks instant messaging, disaster warning and parking', () => {
    signInWith(staff, 'STAFF');
    const staffView = render(
      <MemoryRouter>
        <Sidebar />
      </MemoryRouter>,
    );
    expect(screen.queryByTestId('menu-/complaints-suggestions/index')).toBeTruthy();
    expect(screen.queryByTestId('menu-/instant-messaging/chat')).toBeNull();
    expect(screen.queryByTestId('menu-/disaster-warning/disaster-release')).toBeNull();
    expect(screen.queryByTestId('menu-/building-management/park-space-management')).toBeNull();
    // A single visible child is shown directly.
    expect(screen.queryByTestId('menu-/building-management/unit-management')).toBeTruthy();
    staffView.unmount();

    signInWith([...PERMISSIONS], 'ADMIN');
    render(
      <MemoryRouter>
        <Sidebar />
      </MemoryRouter>,
    );
    expect(screen.queryByTestId('menu-/instant-messaging/chat')).toBeTruthy();
    expect(screen.queryByTestId('menu-/building-management/park-space-management')).toBeTruthy();
    expect(screen.queryByTestId('menu-/disaster-warning/disaster-release')).toBeTruthy();
  });

  it('when a person opens a route their role lacks, then they land on /404', async () => {
    signInWith(staff, 'STAFF');
    render(
      <MemoryRouter initialEntries={['/instant-messaging/chat']}>
        <Routes>
          <Route path="/404" element={<WhereAmI />} />
          <Route path="/*" element={<LayoutRoutes />} />
        </Routes>
      </MemoryRouter>,
    );
    expect((await screen.findByTestId('where')).textContent).toBe('/404');
  });

  it('when the role is not ADMIN, then enterprise management is filtered out even with every permission', () => {
    const paths = (rv: string) => filterRoutes(LAYOUT_ROUTES, new Set(PERMISSIONS), rv).map((r) => r.path);
    expect(paths('STAFF')).not.toContain('/enterprise-management/index');
    expect(paths('ADMIN')).toContain('/enterprise-management/index');
  });
});
