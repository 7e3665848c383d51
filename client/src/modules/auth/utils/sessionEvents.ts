import Cookies from 'js-cookie';
import type { NavigateFunction } from 'react-router-dom';
import { COOKIES, type SessionEvent } from '@pm/shared';
import { i18n } from '../../i18n/i18n';
import { showToast } from '../../ui/states/toasts';
import { resetSession, session } from '../states/session';
import { endSessionAsking } from './sessionEndPrompt';

/**
 * The session topic (DESIGN §3), which reaches every tab of the token:
 * - `logout`: the token was signed out. Signed out in another tab of this browser (its cookie is
 *   gone), this tab follows it to the login page; signed out from elsewhere, it asks (SPEC §8);
 * - `expired`, `forcedLogout` (revoked, password changed): it asks (SPEC §8);
 * - `login`, `system`: a notice.
 */
export function handleSessionEvent(e: SessionEvent, navigate: NavigateFunction): void {
  switch (e.kind) {
    case 'logout':
      if (!session.token) return;
      if (Cookies.get(COOKIES.token) !== session.token) {
        resetSession();
        navigate('/login', { replace: true });
        return;
      }
      void endSessionAsking();
      return;
    case 'expired':
    case 'forcedLogout':
      void endSessionAsking();
      return;
    case 'login':
      showToast('info', i18n.t('messages.toasts.signedInElsewhere'));
      return;
    case 'system': {
      const text = e.payload.content ?? e.payload.title;
      showToast('info', typeof text === 'string' && text ? text : i18n.t('messages.toasts.system'));
      return;
    }
  }
}

/** The gateway refused this tab's token at the handshake: the session has ended. */
export function sessionRefused(): void {
  void endSessionAsking();
}
