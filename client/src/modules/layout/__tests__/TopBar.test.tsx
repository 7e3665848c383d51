import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import '../../i18n/i18n';
import { session } from '../../auth/states/session';
import { TopBar } from '../components/TopBar';

afterEach(() => {
  cleanup();
  session.perms = [];
});

function showTopBar(perms: string[]) {
  session.perms = perms;
  render(
    <MemoryRouter>
      <TopBar onProfile={() => undefined} onChangePassword={() => undefined} />
    </MemoryRouter>,
  );
}

describe('the top bar', () => {
  it('when someone receives SOS calls (disasterwarn:list, or a wall screen), then the alarm bell shows', () => {
    showTopBar(['disasterwarn:list']);
    expect(screen.queryByTestId('alarm-bell')).not.toBeNull();
    cleanup();
    showTopBar(['wall:view']);
    expect(screen.queryByTestId('alarm-bell')).not.toBeNull();
  });

  it('when someone only handles declarations (disasterreport:list), then there is no alarm bell that could never fill; the message bell lists them', () => {
    showTopBar(['disasterreport:list']);
    expect(screen.queryByTestId('alarm-bell')).toBeNull();
    expect(screen.queryByTestId('message-bell')).not.toBeNull();
  });
});
