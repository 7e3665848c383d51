import { parseLanguage, type Language } from '@pm/shared';
import { i18n } from '../i18n';

export function currentLanguage(): Language {
  return parseLanguage(i18n.language) ?? 'en';
}
