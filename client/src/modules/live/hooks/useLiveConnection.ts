import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { accessDigest } from '@pm/shared';
import { session } from '../../auth/states/session';
import { handleAccessEvent } from '../../auth/utils/accessEvents';
import { handleSessionEvent, sessionRefused } from '../../auth/utils/sessionEvents';
import { currentLanguage } from '../../i18n/utils/currentLanguage';
import { notifyLiveEvent } from '../../messages/utils/notifyLiveEvent';
import { connectLive } from '../utils/liveSocket';

/** Opens the live connection while the layout is shown to a signed-in person (SPEC §4). */
export function useLiveConnection(): void {
  const snap = useSnapshot(session);
  // react-router gives a new navigate function on every page: read the latest through a ref, so
  // that moving between screens does not close and reopen the connection.
  const navigateNow = useNavigate();
  const navigate = useRef(navigateNow);
  navigate.current = navigateNow;
  const perms = snap.perms.join(',');
  useEffect(() => {
    if (!snap.token || !snap.ready) return;
    return connectLive({
      token: snap.token,
      perms: perms.split(','),
      language: currentLanguage(),
      // The profile this tab shows: a change made while it loaded is announced on connect.
      access: () => accessDigest(session.roleValue, session.perms),
      onEvent: (e) => {
        // The session topic: this token signed out, expired or was revoked elsewhere (DESIGN §3).
        if (e.topic === 'session') handleSessionEvent(e, navigate.current);
        // Access changed (issue 30): the menu, the permission directive and the screen follow.
        else if (e.topic === 'access') handleAccessEvent(e, navigate.current, () => window.location.pathname);
        else notifyLiveEvent(e, (path) => navigate.current(path));
      },
      onRefused: sessionRefused,
    });
  }, [snap.token, snap.ready, perms]);
}
