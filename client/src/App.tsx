import { lazy, Suspense, useEffect } from 'react';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router-dom';
import { Loader } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { RequireAuth } from './modules/auth/components/RequireAuth';
import { WallOnlyGuard } from './modules/wall/components/WallOnlyGuard';
import { pageTitle } from './modules/layout/utils/pageTitle';
import { useSnapshot } from 'valtio';
import { Toaster } from './modules/ui/components/Toaster';
import { confirmState } from './modules/ui/states/confirms';

// Every screen is its own chunk: the login route loads only what it shows (DESIGN §6 budget).
const LoginPage = lazy(() => import('./modules/auth/components/LoginPage'));
const ForgetPasswordPage = lazy(() => import('./modules/auth/components/ForgetPasswordPage'));
const NotFoundPage = lazy(() => import('./modules/layout/components/NotFoundPage'));
const RedirectPage = lazy(() => import('./modules/layout/components/RedirectPage'));
const Layout = lazy(() => import('./modules/layout/components/Layout'));
// The wall screen (issue 22): outside the sidebar frame, its own chunk.
const WallScreenPage = lazy(() => import('./modules/wall/components/WallScreenPage'));
// Dialogs (and their focus trap) load with the first confirmation, not with the login page.
const ConfirmHost = lazy(() => import('./modules/ui/components/ConfirmHost'));

function Confirmations() {
  const snap = useSnapshot(confirmState);
  if (snap.open.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmHost />
    </Suspense>
  );
}

/** Page title per route (SPEC §1) and scroll to top on every navigation (SPEC §2). */
function TitleAndScroll() {
  const { pathname } = useLocation();
  const { t, i18n } = useTranslation();
  useEffect(() => {
    document.title = pageTitle(pathname, t);
    document.documentElement.lang = i18n.language;
  }, [pathname, t, i18n.language]);
  useEffect(() => {
    if (!pathname.startsWith('/redirect/')) window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

export function AppRoutes() {
  return (
    <Suspense fallback={<Loader active />}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/forget-password" element={<ForgetPasswordPage />} />
        <Route path="/404" element={<NotFoundPage />} />
        <Route path="/redirect/*" element={<RedirectPage />} />
        <Route
          path="/wall"
          element={
            <RequireAuth>
              <WallScreenPage />
            </RequireAuth>
          }
        />
        <Route
          path="/*"
          element={
            <RequireAuth>
              <WallOnlyGuard>
                <Layout />
              </WallOnlyGuard>
            </RequireAuth>
          }
        />
      </Routes>
    </Suspense>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <TitleAndScroll />
      <AppRoutes />
      <Toaster />
      <Confirmations />
    </BrowserRouter>
  );
}
