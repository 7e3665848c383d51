import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { Loader } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { WHITELIST } from '@pm/shared';
import { showToast } from '../../ui/states/toasts';
import { session } from '../states/session';
import { isUnreachable, loadSession } from '../utils/loginFlow';

/** How long the guard waits before loading the session again while the api cannot be reached. */
export const SESSION_RETRY_MS = 3_000;

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

  // While the api cannot be reached (a restart, the network) a reload keeps the person signed in
  // and tries again, instead of sending a wall screen or a busy tab to the login page.
  const { t } = useTranslation();
  const [attempt, setAttempt] = useState(0);
  const [waiting, setWaiting] = useState(false);

  useEffect(() => {
    if (!snap.token || snap.ready) return;
    let cancelled = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    setFailed(false);
    loadSession().then(
      () => setWaiting(false),
      (e: Error) => {
        if (cancelled) return;
        if (isUnreachable(e)) {
          setWaiting(true);
          retry = setTimeout(() => setAttempt((n) => n + 1), SESSION_RETRY_MS);
          return;
        }
        setWaiting(false);
        showToast('error', e.message);
        setFailed(true);
      },
    );
    return () => {
      cancelled = true;
      clearTimeout(retry);
    };
  }, [snap.token, snap.ready, attempt]);

  if (WHITELIST.includes(location.pathname)) return <>{children}</>;
  if (!snap.token && !failed && shownWhileSignedIn.current === location.key) return <>{children}</>;
  if (!snap.token || failed) return <Navigate to={loginPathFor(fullPath)} replace />;
  if (!snap.ready)
    return (
      <Loader
        active
        data-testid="session-loading"
        data-waiting={waiting || undefined}
        content={waiting ? t('errors.sessionWaiting') : undefined}
      />
    );
  shownWhileSignedIn.current = location.key;
  return <>{children}</>;
}
