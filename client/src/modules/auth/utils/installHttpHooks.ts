import { setHttpHooks } from '../../api';
import { i18n } from '../../i18n/i18n';
import { currentLanguage } from '../../i18n/utils/currentLanguage';
import { showToast } from '../../ui/states/toasts';
import { session } from '../states/session';
import { endSessionAsking } from './sessionEndPrompt';

/** Connects the data-access layer to the session, the language and the toasts. */
export function installHttpHooks(): void {
  setHttpHooks({
    token: () => session.token,
    language: () => currentLanguage(),
    toast: (kind, message) => showToast(kind, message),
    text: (key) => i18n.t(`errors.${key}`),
    // SPEC §8: confirm resets the token and reloads; cancel resets the token only.
    unauthorized: () => void endSessionAsking(),
  });
}
