import { useEffect, useMemo, type MouseEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Icon, Label, Menu, Popup, type SemanticICONS } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { BADGE_MAX } from '@pm/shared';
import { session } from '../../auth/states/session';
import { liveState } from '../../live/states/liveState';
import { isPlainClick } from '../../ui/utils/isPlainClick';
import { SidebarLogo } from '../../estate-settings/components/SidebarLogo';
import { closeMobileMenu, layoutSettings } from '../states/layoutSettings';
import { menuItems, type MenuItem } from '../utils/menuItems';

const CHAT_BADGE_PATHS = new Set(['/instant-messaging', '/instant-messaging/chat']);
const badge = (n: number) => (n > BADGE_MAX ? `${BADGE_MAX}+` : String(n));

/** The sidebar: the person's permitted routes, with the unread-chat badge on instant messaging. */
export function Sidebar() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const snap = useSnapshot(session);
  const settings = useSnapshot(layoutSettings);
  const live = useSnapshot(liveState);
  const items = useMemo(() => menuItems(snap.routes as typeof session.routes), [snap.routes]);
  // Slid in on a narrow screen it is always the full menu.
  const open = settings.narrow || settings.sidebarOpen;
  // Choosing a page closes the slid-in menu.
  useEffect(() => closeMobileMenu(), [pathname]);

  // Entries are links to their page (a new tab with a middle or Ctrl+click); a plain click goes
  // through /redirect so that choosing the current entry reloads its screen (SPEC §2).
  const go = (e: MouseEvent, path: string) => {
    if (!isPlainClick(e)) return;
    e.preventDefault();
    navigate(`/redirect${path}`);
  };
  const isActive = (path: string) => pathname === path || pathname.startsWith(path + '/');
  // On the instant-messaging group and its chat page only, not on the address-book pages.
  const chatBadge = (item: MenuItem) =>
    CHAT_BADGE_PATHS.has(item.path) && live.snapshot.chatUnread > 0 ? (
      <Label color="red" size="mini" circular data-testid="chat-badge">
        {badge(live.snapshot.chatUnread)}
      </Label>
    ) : null;

  const entry = (item: MenuItem, nested = false) => {
    const body = (
      <Menu.Item
        key={item.path}
        as={Link}
        to={item.path}
        active={isActive(item.path)}
        aria-current={isActive(item.path) ? 'page' : undefined}
        aria-label={open ? undefined : t(`routes.${item.title}`)}
        onClick={(e: MouseEvent) => go(e, item.path)}
        data-testid={`menu-${item.path}`}
        className={nested ? 'nested' : undefined}
      >
        {chatBadge(item)}
        {!nested && item.icon && <Icon name={item.icon as SemanticICONS} aria-hidden="true" />}
        <span className="menu-text">{t(`routes.${item.title}`)}</span>
      </Menu.Item>
    );
    return !open && !nested ? (
      <Popup key={item.path} content={t(`routes.${item.title}`)} position="right center" inverted trigger={body} />
    ) : (
      body
    );
  };

  return (
    <nav className={`app-sidebar${open ? '' : ' collapsed'}`} aria-label={t('layout.menu')} data-testid="sidebar">
      {settings.sidebarLogo && <SidebarLogo open={open} />}
      <Menu vertical inverted fluid className="sidebar-menu">
        {items.map((item) =>
          item.children ? (
            <Menu.Item key={item.path} className={`submenu${isActive(item.path) ? ' open' : ''}`}>
              <Menu.Header>
                {item.icon && <Icon name={item.icon as SemanticICONS} aria-hidden="true" />}
                <span className="menu-text">{t(`routes.${item.title}`)}</span>
                {chatBadge(item)}
              </Menu.Header>
              <Menu.Menu>{item.children.map((c) => entry(c, true))}</Menu.Menu>
            </Menu.Item>
          ) : (
            entry(item)
          ),
        )}
      </Menu>
    </nav>
  );
}
