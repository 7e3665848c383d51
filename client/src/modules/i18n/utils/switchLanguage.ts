import Cookies from 'js-cookie';
import { COOKIES, type Language } from '@pm/shared';
import { saveAccountLanguage } from '../../api';
import { session } from '../../auth/states/session';
import { showToast } from '../../ui/states/toasts';
import { changeLanguage, i18n } from '../i18n';

/**
 * Switches the whole interface at once (SPEC §4); when signed in the choice is saved to the
 * account, and the api's own messages follow through the `lang` header of later calls.
 */
export async function switchLanguage(language: Language): Promise<void> {
  Cookies.set(COOKIES.language, language, { sameSite: 'Lax', expires: 365 });
  await changeLanguage(language);
  document.documentElement.lang = language;
  if (session.token && session.accId !== undefined) {
    try {
      await saveAccountLanguage(session.accId, language);
      showToast('success', i18n.t('toast.switchLanguage'));
    } catch {
      // The interface already switched; the http layer showed why saving failed.
    }
  }
}
