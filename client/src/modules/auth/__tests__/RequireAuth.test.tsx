import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { COOKIES, LAYOUT_ROUTES, filterRoutes } from '@pm/shared';
import '../../i18n/i18n';
import { RequireAuth } from '../components/RequireAuth';
import { completeSession, resetSession, session, setToken } from '../states/session';

function WhereAmI() {
  const l = useLocation();
  return <div data-testid="where">{l.pathname + l.search}</div>;
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/login" element={<WhereAmI />} />
        <Route
          path="/*"
          element={
            <RequireAuth>
              <div data-testid="protected">inside</div>
            </RequireAuth>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

const staffPerms = ['complain:list', 'eventorder:list', 'unit:list'];
function signIn() {
  setToken('test-token');
  completeSession({
    roleValue: 'STAFF',
    name: 'Staff',
    pId: 2,
    accId: 2,
    avatar: '',
    roleId: 2,
    perms: staffPerms,
    routes: filterRoutes(LAYOUT_ROUTES, new Set(staffPerms), 'STAFF'),
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  cleanup();
  resetSession();
});

describe('route guard', () => {
  it('when a visitor without a token opens a layout path, then they go to /login with the path as redirect', () => {
    renderAt('/complaints-suggestions/index?x=1');
    expect(screen.getByTestId('where').textContent).toBe(
      '/login?redirect=' + encodeURIComponent('/complaints-suggestions/index?x=1'),
    );
    expect(screen.queryByTestId('protected')).toBeNull();
  });

  it('when a visitor without a token opens an unknown path, then they go to /login too', () => {
    renderAt('/no/such/page');
    expect(screen.getByTestId('where').textContent).toContain('/login?redirect=');
  });

  it('when the session is loaded, then the protected screen renders', () => {
    signIn();
    renderAt('/dashboard');
    expect(screen.getByTestId('protected')).toBeTruthy();
  });

  it('when the stored token cannot be verified, then the token is cleared and the visitor goes to /login', async () => {
    // A token from a cookie with no session behind it: the api answers 401 to the login flow.
    vi.stubGlobal('fetch', async () =>
      Response.json({ code: 401, msg: 'Your session has expired, please sign in again' }, { status: 401 }),
    );
    setToken('stale-token');
    renderAt('/dashboard');
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/login?redirect=%2Fdashboard'));
    expect(session.token).toBeUndefined();
    expect(Cookies.get(COOKIES.token)).toBeUndefined();
  });

  it('when the api cannot be reached, then the token is kept and the guard says it is trying again', async () => {
    let calls = 0;
    vi.stubGlobal('fetch', async () => {
      calls++;
      throw new TypeError('Failed to fetch');
    });
    setToken('good-token');
    renderAt('/dashboard');
    await waitFor(() => expect(screen.getByTestId('session-loading').textContent).toContain('Trying again'));
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(screen.queryByTestId('where')).toBeNull();
    expect(session.token).toBe('good-token');
  });

  it('when signing out, then the token, role and name cookies are removed', () => {
    signIn();
    expect(Cookies.get(COOKIES.token)).toBe('test-token');
    expect(Cookies.get(COOKIES.roleValue)).toBe('STAFF');
    resetSession();
    for (const name of [COOKIES.token, COOKIES.roleValue, COOKIES.name, COOKIES.pId, COOKIES.accId])
      expect(Cookies.get(name)).toBeUndefined();
  });
});
