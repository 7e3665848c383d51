import { i18n } from '../../i18n/i18n';
import { confirm } from '../../ui/states/confirms';

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
