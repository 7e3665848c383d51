import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MenuButton } from '../components/MenuButton';

afterEach(cleanup);

function renderMenu(chosen: string[]) {
  render(
    <MenuButton
      label="Language: English"
      trigger="English"
      data-testid="menu"
      items={[
        { key: 'en', text: 'English', disabled: true, current: true, onSelect: () => chosen.push('en') },
        { key: 'cn', text: '简体中文', onSelect: () => chosen.push('cn') },
        { key: 'tw', text: '繁體中文', onSelect: () => chosen.push('tw') },
      ]}
    />,
  );
  return screen.getByTestId('menu');
}

describe('menu button', () => {
  it('when ↓ is pressed on the button, then the menu opens on its first entry and the arrows move through it', async () => {
    const chosen: string[] = [];
    const button = renderMenu(chosen);
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    await waitFor(() => expect(document.activeElement?.textContent).toBe('English'));
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const menu = screen.getByRole('menu');
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('简体中文');
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    expect(document.activeElement?.textContent).toBe('繁體中文');
    fireEvent.click(document.activeElement!);
    expect(chosen).toEqual(['tw']);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('when Escape is pressed, or a disabled entry chosen, then nothing is chosen and Escape gives focus back', () => {
    const chosen: string[] = [];
    const button = renderMenu(chosen);
    fireEvent.click(button);
    const current = screen.getByRole('menuitem', { name: 'English' });
    expect(current.getAttribute('aria-disabled')).toBe('true');
    expect(current.className).toContain('disabled');
    fireEvent.click(current);
    expect(chosen).toEqual([]);
    current.focus();
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });
});
