import { i18n } from '../../i18n/i18n';
import { confirm } from '../../ui/states/confirms';
import { leaveSignedOut, resetSession, session } from '../states/session';

let open = false;

/**
 * The one "your session has ended" question (SPEC §8): sign in again, or stay on the page.
 * A password change ends the session twice over — the answer of the call and the gateway's
 * `session` event for the revoked token — so a second prompt while one is open is dropped
 * (null), never stacked on top of the first.
 */
export async function promptSessionEnded(message: string): Promise<boolean | null> {
  if (open) return null;
  open = true;
  try {
    return await confirm(message, { confirmText: i18n.t('profile.signInAgain'), cancelText: i18n.t('profile.stay') });
  } finally {
    open = false;
  }
}

/**
 * The session ended elsewhere (HTTP 401, a session event, a refused live connection): asks once;
 * "sign in again" resets the token and reloads (to the login page), "stay" resets the token but
 * keeps the page readable with a way to sign in again. Nothing to ask once already signed out.
 */
export async function endSessionAsking(message: string = i18n.t('errors.loggedOut')): Promise<void> {
  if (!session.token) return;
  const again = await promptSessionEnded(message);
  if (again === null) return;
  if (again) {
    resetSession();
    window.location.reload();
  } else leaveSignedOut();
}
