import { setHttpHooks } from '../../api';
import { i18n } from '../../i18n/i18n';
import { currentLanguage } from '../../i18n/utils/currentLanguage';
import { showToast } from '../../ui/states/toasts';
import { resetSession, session } from '../states/session';
import { promptSessionEnded } from './sessionEndPrompt';

/** Connects the data-access layer to the session, the language and the toasts. */
export function installHttpHooks(): void {
  setHttpHooks({
    token: () => session.token,
    language: () => currentLanguage(),
    toast: (kind, message) => showToast(kind, message),
    text: (key) => i18n.t(`errors.${key}`),
    // SPEC §8: confirm resets the token and reloads; cancel resets the token only.
    // Nothing to ask once the session is already gone (a late event after logout).
    unauthorized: () => {
      if (!session.token) return;
      void promptSessionEnded(i18n.t('errors.loggedOut')).then((again) => {
        if (again === null) return;
        resetSession();
        if (again) window.location.reload();
      });
    },
  });
}
