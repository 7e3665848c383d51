import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { COPYRIGHT_FROM_YEAR } from '@pm/shared';
import '../../i18n/i18n';
import LoginPage from '../components/LoginPage';
import { resetSession, setToken } from '../states/session';

afterEach(() => {
  cleanup();
  resetSession();
});

function renderLogin() {
  return render(
    <MemoryRouter initialEntries={['/login']}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/" element={<div data-testid="home">home</div>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('login page', () => {
  it('when submitted empty, then both fields say they are required; blanks alone are no account', () => {
    renderLogin();
    fireEvent.change(document.querySelector('input[name=account]')!, { target: { value: '   ' } });
    fireEvent.click(screen.getByTestId('login-submit'));
    expect(screen.getByText('Please enter the account')).toBeTruthy();
    expect(screen.getByText('Please enter the password')).toBeTruthy();
  });

  it('when shown, then the version label 003 and the copyright from 2014 to this year appear', () => {
    renderLogin();
    expect(screen.getByTestId('version-label').textContent).toContain('003');
    expect(screen.getByTestId('copyright').textContent).toContain(`${COPYRIGHT_FROM_YEAR}-${new Date().getFullYear()}`);
  });

  it('when a signed-in visitor opens /login, then they are sent to /', () => {
    setToken('t');
    renderLogin();
    expect(screen.getByTestId('home')).toBeTruthy();
  });
});
