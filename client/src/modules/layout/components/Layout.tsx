import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { SignedOutBanner } from '../../auth/components/SignedOutBanner';
import { SosAlarmCenter } from '../../disaster/components/SosAlarmCenter';
import { session } from '../../auth/states/session';
import { EstateSync } from '../../estate-settings/components/EstateSync';
import { useLiveConnection } from '../../live/hooks/useLiveConnection';
import { closeMobileMenu, layoutSettings, watchScreenWidth } from '../states/layoutSettings';
import { routeTitleKey } from '../utils/pageTitle';
import { BackToTop } from './BackToTop';
import { LayoutRoutes } from './LayoutRoutes';
import { SettingsDrawer } from './SettingsDrawer';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import '../../ui/semantic/signed-in';
import './layout.css';

const ProfileDialog = lazy(() =>
  import('../../profile/components/ProfileDialog').then((m) => ({ default: m.ProfileDialog })),
);
const ChangePasswordDialog = lazy(() =>
  import('../../profile/components/ChangePasswordDialog').then((m) => ({ default: m.ChangePasswordDialog })),
);

/** The signed-in frame: sidebar, top bar, the screen, back-to-top, settings drawer, dialogs. */
export default function Layout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const titleKey = routeTitleKey(pathname);
  const settings = useSnapshot(layoutSettings);
  // The estate's time zone (basic set-up) changes live: the frame and its screen render again,
  // every time shown in the new zone (no remount: a form being edited keeps its values).
  const { timeZone } = useSnapshot(session);
  const [dialog, setDialog] = useState<'profile' | 'password' | null>(null);
  useLiveConnection();
  useEffect(() => watchScreenWidth(), []);
  // A new screen: the focus goes to its heading (a keyboard or screen-reader user starts there,
  // not on the menu entry they left or on the page's body), unless a dialog holds it.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (document.activeElement?.closest('[role=dialog]')) return;
    heading.current?.focus({ preventScroll: true });
  }, [pathname]);
  const frame = settings.narrow
    ? `narrow${settings.mobileMenuOpen ? ' mobile-menu-open' : ''}`
    : settings.sidebarOpen
      ? ''
      : 'sidebar-collapsed';
  return (
    <div className={`app-layout ${frame}${settings.fixedHeader ? ' fixed-header' : ''}`} data-time-zone={timeZone}>
      <a
        className="skip-link"
        href="#main-content"
        onClick={(e) => {
          e.preventDefault();
          heading.current?.focus();
        }}
      >
        {t('layout.skipToContent')}
      </a>
      <Sidebar />
      {settings.narrow && settings.mobileMenuOpen && (
        <div className="sidebar-backdrop" onClick={closeMobileMenu} data-testid="sidebar-backdrop" />
      )}
      <div className="app-main">
        <TopBar onProfile={() => setDialog('profile')} onChangePassword={() => setDialog('password')} />
        <main className="app-content" id="main-content">
          {/* The screen's name for screen readers; sighted people read it in the breadcrumb. */}
          <h1 className="visually-hidden" tabIndex={-1} ref={heading} data-testid="screen-heading">
            {titleKey ? t(titleKey) : t('app.title')}
          </h1>
          <SignedOutBanner />
          <LayoutRoutes />
        </main>
      </div>
      <BackToTop />
      <SettingsDrawer />
      <SosAlarmCenter />
      <EstateSync />
      <Suspense fallback={null}>
        {dialog === 'profile' && <ProfileDialog open onClose={() => setDialog(null)} />}
        {dialog === 'password' && <ChangePasswordDialog open onClose={() => setDialog(null)} />}
      </Suspense>
    </div>
  );
}
