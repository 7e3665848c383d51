import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { Loader } from 'semantic-ui-react';
import { useSnapshot } from 'valtio';
import { WHITELIST } from '@pm/shared';
import { showToast } from '../../ui/states/toasts';
import { session } from '../states/session';
import { loadSession } from '../utils/loginFlow';

export function loginPathFor(fullPath: string): string {
  return `/login?redirect=${encodeURIComponent(fullPath)}`;
}

/**
 * The route guard (SPEC §2, §4): a visitor without a token may open only whitelisted paths,
 * everything else goes to /login?redirect=…; with a token the session is loaded once
 * (current user → account info → role menu → routes) before the layout renders.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const snap = useSnapshot(session);
  const location = useLocation();
  const fullPath = location.pathname + location.search + location.hash;
  const [failed, setFailed] = useState(false);
  // SPEC §8: after "You have logged out" the person may stay on the page they are on; the
  // guard acts again on the next navigation.
  const shownWhileSignedIn = useRef<string | null>(null);

  useEffect(() => {
    if (!snap.token || snap.ready) return;
    let cancelled = false;
    setFailed(false);
    loadSession().catch((e: Error) => {
      if (cancelled) return;
      showToast('error', e.message);
      setFailed(true);
    });
    return () => {
      cancelled = true;
    };
  }, [snap.token, snap.ready]);

  if (WHITELIST.includes(location.pathname)) return <>{children}</>;
  if (!snap.token && !failed && shownWhileSignedIn.current === location.key) return <>{children}</>;
  if (!snap.token || failed) return <Navigate to={loginPathFor(fullPath)} replace />;
  if (!snap.ready) return <Loader active data-testid="session-loading" />;
  shownWhileSignedIn.current = location.key;
  return <>{children}</>;
}
