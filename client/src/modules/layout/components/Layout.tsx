import { lazy, Suspense, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useLiveConnection } from '../../live/hooks/useLiveConnection';
import { layoutSettings } from '../states/layoutSettings';
import { BackToTop } from './BackToTop';
import { LayoutRoutes } from './LayoutRoutes';
import { SettingsDrawer } from './SettingsDrawer';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import './layout.css';

const ProfileDialog = lazy(() =>
  import('../../profile/components/ProfileDialog').then((m) => ({ default: m.ProfileDialog })),
);
const ChangePasswordDialog = lazy(() =>
  import('../../profile/components/ChangePasswordDialog').then((m) => ({ default: m.ChangePasswordDialog })),
);

/** The signed-in frame: sidebar, top bar, the screen, back-to-top, settings drawer, dialogs. */
export default function Layout() {
  const settings = useSnapshot(layoutSettings);
  const [dialog, setDialog] = useState<'profile' | 'password' | null>(null);
  useLiveConnection();
  return (
    <div
      className={`app-layout${settings.sidebarOpen ? '' : ' sidebar-collapsed'}${settings.fixedHeader ? ' fixed-header' : ''}`}
    >
      <Sidebar />
      <div className="app-main">
        <TopBar onProfile={() => setDialog('profile')} onChangePassword={() => setDialog('password')} />
        <main className="app-content">
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
