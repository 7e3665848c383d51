import { useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon, Label, type SemanticICONS } from 'semantic-ui-react';
import { BADGE_MAX } from '@pm/shared';
import { NotificationPanel } from '../../messages/components/NotificationPanel';

interface Props {
  icon: SemanticICONS;
  label: string;
  count: number;
  types: number[];
  testId: string;
}

/**
 * A bell of the top bar with its unread badge (capped at 99+) and its panel. The panel follows
 * the button in the page, so Tab reaches its View buttons; it takes the focus when it opens,
 * Escape closes it and gives the focus back to the bell, and so does a click or focus elsewhere.
 */
export function Bell({ icon, label, count, types, testId }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const shown = count > BADGE_MAX ? `${BADGE_MAX}+` : String(count);
  // The name includes the badge people see ("Messages: 3 unread").
  const name = count > 0 ? t('layout.bellUnread', { label, number: shown }) : label;

  useEffect(() => {
    if (!open) return;
    panel.current?.focus();
    const onDown = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const close = (focusBell: boolean) => {
    setOpen(false);
    if (focusBell) button.current?.focus();
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !open) return;
    e.stopPropagation();
    close(true);
  };
  // Tabbing past the panel closes it.
  const onBlur = (e: FocusEvent) => {
    const next = e.relatedTarget as Node | null;
    if (open && next && !root.current?.contains(next)) setOpen(false);
  };

  return (
    <div className="bell" ref={root} onKeyDown={onKey} onBlur={onBlur}>
      <button
        ref={button}
        type="button"
        className="ui basic icon button topbar-button"
        aria-label={name}
        title={name}
        aria-expanded={open}
        aria-controls={open ? `${id}-panel` : undefined}
        onClick={() => (open ? close(false) : setOpen(true))}
        data-testid={testId}
      >
        <Icon name={icon} aria-hidden="true" />
        {count > 0 && (
          <Label color="red" floating circular size="mini" data-testid={`${testId}-count`}>
            {shown}
          </Label>
        )}
      </button>
      {open && (
        <div
          id={`${id}-panel`}
          ref={panel}
          className="bell-popup"
          role="dialog"
          aria-label={label}
          tabIndex={-1}
          data-testid={`${testId}-panel`}
        >
          <div className="bell-popup-header" aria-hidden="true">
            {label}
          </div>
          <NotificationPanel types={types} onNavigate={() => setOpen(false)} />
        </div>
      )}
    </div>
  );
}
