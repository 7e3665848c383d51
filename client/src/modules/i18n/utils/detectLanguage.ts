import Cookies from 'js-cookie';
import { COOKIES, parseLanguage, type Language } from '@pm/shared';

/** SPEC §9: the language cookie first, then the browser's languages, else English. */
export function detectLanguage(): Language {
  const fromCookie = parseLanguage(Cookies.get(COOKIES.language));
  if (fromCookie) return fromCookie;
  const browser = typeof navigator !== 'undefined' ? (navigator.languages ?? [navigator.language]) : [];
  for (const l of browser) {
    const parsed = parseLanguage(l);
    if (parsed) return parsed;
  }
  return 'en';
}
