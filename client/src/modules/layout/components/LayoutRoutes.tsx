import { Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { Loader } from 'semantic-ui-react';
import { useSnapshot } from 'valtio';
import { flattenRoutes, type RouteDef } from '@pm/shared';
import { session } from '../../auth/states/session';
import { closedScreen } from '../../auth/utils/accessEvents';
import { SCREENS } from '../utils/screenRegistry';
import ComingSoonPage from './ComingSoonPage';

/** The routes inside the layout: only the person's permitted ones; anything else is /404. */
export function LayoutRoutes() {
  const snap = useSnapshot(session);
  const routes = flattenRoutes(snap.routes as RouteDef[]);
  const { pathname } = useLocation();
  // A screen the person's access no longer allows (issue 30) leads to the allowed one chosen then.
  const unknown = closedScreen?.from === pathname ? closedScreen.to : '/404';
  return (
    <Suspense fallback={<Loader active inline="centered" />}>
      <Routes>
        <Route index element={<Navigate to="/dashboard" replace />} />
        {routes.map((r) => {
          if (r.redirect) return <Route key={r.path} path={r.path} element={<Navigate to={r.redirect} replace />} />;
          const Screen = SCREENS[r.path] ?? ComingSoonPage;
          return <Route key={r.path} path={r.path} element={<Screen />} />;
        })}
        {/* Only a signed-in session knows which paths are unknown; right after logout (routes
            cleared, navigation to /login pending) nothing may send the person to /404. */}
        <Route path="*" element={snap.ready ? <Navigate to={unknown} replace /> : null} />
      </Routes>
    </Suspense>
  );
}
