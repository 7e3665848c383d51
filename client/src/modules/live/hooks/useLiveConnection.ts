import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { httpHooks } from '../../api';
import { session } from '../../auth/states/session';
import { currentLanguage } from '../../i18n/utils/currentLanguage';
import { notifyLiveEvent } from '../../messages/utils/notifyLiveEvent';
import { connectLive } from '../utils/liveSocket';

/** Opens the live connection while the layout is shown to a signed-in person (SPEC §4). */
export function useLiveConnection(): void {
  const snap = useSnapshot(session);
  const navigate = useNavigate();
  const perms = snap.perms.join(',');
  useEffect(() => {
    if (!snap.token || !snap.ready) return;
    return connectLive({
      token: snap.token,
      perms: perms.split(','),
      language: currentLanguage(),
      onEvent: (e) => {
        // The session ended elsewhere (revoked, expired, forced out): the same prompt as an HTTP 401.
        if (e.topic === 'session' && (e.kind === 'expired' || e.kind === 'forcedLogout')) httpHooks.unauthorized();
        else notifyLiveEvent(e, () => navigate('/instant-messaging/chat'));
      },
    });
  }, [snap.token, snap.ready, perms, navigate]);
}
