import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface MenuButtonItem {
  key: string;
  text: string;
  icon?: string;
  disabled?: boolean;
  /** Marks the current choice (the language in use). */
  current?: boolean;
  /** A separator before this item. */
  dividerBefore?: boolean;
  onSelect: () => void;
  testId?: string;
}

interface Props {
  /** What the button shows (icon, avatar, current value). */
  trigger: ReactNode;
  /** The button's accessible name. */
  label: string;
  items: MenuButtonItem[];
  className?: string;
  /** Looks of the button itself, e.g. 'ui basic small button'. */
  triggerClassName?: string;
  'data-testid'?: string;
}

/**
 * A button that opens a menu (WAI-ARIA menu button): Enter, Space or ↓ opens it, ↑/↓/Home/End
 * move between entries, Escape closes it and focus goes back to the button; a click outside
 * closes it too. For the top bar's language and account menus.
 */
export function MenuButton({ trigger, label, items, className, triggerClassName, ...rest }: Props) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const entries = () => [...(root.current?.querySelectorAll<HTMLButtonElement>('[role=menuitem]') ?? [])];

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const openAt = (which: 'first' | 'last') => {
    setOpen(true);
    requestAnimationFrame(() => {
      const all = entries();
      (which === 'first' ? all[0] : all[all.length - 1])?.focus();
    });
  };
  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) button.current?.focus();
  };

  const onMenuKey = (e: KeyboardEvent) => {
    const all = entries();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    const move = (i: number) => all[(i + all.length) % all.length]?.focus();
    if (e.key === 'ArrowDown') move(at + 1);
    else if (e.key === 'ArrowUp') move(at - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(all.length - 1);
    else if (e.key === 'Escape') close(true);
    else if (e.key === 'Tab') return setOpen(false);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <div ref={root} className={`menu-button${open ? ' open' : ''}${className ? ` ${className}` : ''}`}>
      <button
        ref={button}
        type="button"
        className={triggerClassName ?? 'menu-button-trigger'}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        aria-label={label}
        title={label}
        onClick={() => (open ? close(false) : setOpen(true))}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            openAt(e.key === 'ArrowDown' ? 'first' : 'last');
          }
        }}
        data-testid={rest['data-testid']}
      >
        {trigger}
      </button>
      {open && (
        <div id={`${id}-menu`} role="menu" aria-label={label} className="menu-button-menu" onKeyDown={onMenuKey}>
          {items.map((item) => (
            <div key={item.key} role="none">
              {item.dividerBefore && <div className="menu-button-divider" role="separator" />}
              <button
                type="button"
                role="menuitem"
                className={`item${item.disabled ? ' disabled' : ''}${item.current ? ' active' : ''}`}
                aria-disabled={item.disabled || undefined}
                aria-current={item.current || undefined}
                onClick={() => {
                  if (item.disabled) return;
                  close(true);
                  item.onSelect();
                }}
                data-testid={item.testId}
              >
                {item.icon && <i className={`${item.icon} icon`} aria-hidden="true" />}
                {item.text}
              </button>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
