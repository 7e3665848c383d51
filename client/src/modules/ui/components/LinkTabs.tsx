import type { ReactNode } from 'react';
import { Link, type To } from 'react-router-dom';
import { Menu } from 'semantic-ui-react';

export interface LinkTab {
  key: string | number;
  to: To;
  content: ReactNode;
  active: boolean;
  testId?: string;
}

/**
 * Tabs that are real links (`<a href>`): reached with Tab, opened in a new browser tab with a
 * middle or Ctrl+click, and the link carries the state the tab shows (status tabs, dialog tabs).
 */
export function LinkTabs({
  items,
  label,
  className,
  replace = false,
}: {
  items: LinkTab[];
  /** What the tabs choose, for screen readers. */
  label: string;
  className?: string;
  /** Switch in place instead of adding a history entry. */
  replace?: boolean;
}) {
  return (
    <nav aria-label={label}>
      <Menu pointing secondary className={className}>
        {items.map((item) => (
          <Menu.Item
            key={item.key}
            as={Link}
            to={item.to}
            replace={replace}
            active={item.active}
            aria-current={item.active ? 'page' : undefined}
            data-testid={item.testId}
          >
            {item.content}
          </Menu.Item>
        ))}
      </Menu>
    </nav>
  );
}
