import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
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
  const [dialog, setDialog] = useState<'profile' | 'password' | null>(null);
  useLiveConnection();
  useEffect(() => watchScreenWidth(), []);
  const frame = settings.narrow
    ? `narrow${settings.mobileMenuOpen ? ' mobile-menu-open' : ''}`
    : settings.sidebarOpen
      ? ''
      : 'sidebar-collapsed';
  return (
    <div className={`app-layout ${frame}${settings.fixedHeader ? ' fixed-header' : ''}`}>
      <Sidebar />
      {settings.narrow && settings.mobileMenuOpen && (
        <div className="sidebar-backdrop" onClick={closeMobileMenu} data-testid="sidebar-backdrop" />
      )}
      <div className="app-main">
        <TopBar onProfile={() => setDialog('profile')} onChangePassword={() => setDialog('password')} />
        <main className="app-content">
          {/* The screen's name for screen readers; sighted people read it in the breadcrumb. */}
          <h1 className="visually-hidden">{titleKey ? t(titleKey) : t('app.title')}</h1>
          <LayoutRoutes />
        </main>
      </div>
      <BackToTop />
      <SettingsDrawer />
      <Suspense fallback={null}>
        {dialog === 'profile' && <ProfileDialog open onClose={() => setDialog(null)} />}
        {dialog === 'password' && <ChangePasswordDialog open onClose={() => setDialog(null)} />}
      </Suspense>
    </div>
  );
}
