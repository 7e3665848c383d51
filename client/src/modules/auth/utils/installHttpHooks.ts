import { setHttpHooks } from '../../api';
import { i18n } from '../../i18n/i18n';
import { currentLanguage } from '../../i18n/utils/currentLanguage';
import { confirm } from '../../ui/states/confirms';
import { showToast } from '../../ui/states/toasts';
import { resetSession, session } from '../states/session';

let prompting = false;

/** Connects the data-access layer to the session, the language and the toasts. */
export function installHttpHooks(): void {
  setHttpHooks({
    token: () => session.token,
    language: () => currentLanguage(),
    toast: (kind, message) => showToast(kind, message),
    text: (key) => i18n.t(`errors.${key}`),
    // SPEC §8: confirm resets the token and reloads; cancel resets the token only.
    unauthorized: () => {
      if (prompting) return;
      prompting = true;
      void confirm(i18n.t('errors.loggedOut'), {
        confirmText: i18n.t('profile.signInAgain'),
        cancelText: i18n.t('profile.stay'),
      }).then((again) => {
        prompting = false;
        resetSession();
        if (again) window.location.reload();
      });
    },
  });
}
