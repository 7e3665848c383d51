import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from '@pm/shared';
import en from '../../../../locales/en.json';
import { detectLanguage } from './utils/detectLanguage';

/**
 * English is bundled (it is every language's fallback); the Chinese texts are fetched when
 * needed, so the login route loads one language instead of three (DESIGN §6 budget).
 */
const LOADERS: Record<Exclude<Language, 'en'>, () => Promise<{ default: Record<string, unknown> }>> = {
  'zh-CN': () => import('../../../../locales/zh-CN.json'),
  'zh-TW': () => import('../../../../locales/zh-TW.json'),
};

/** One i18next instance for the console; resources are the repository's locales/ files. */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en } },
  partialBundledLanguages: true,
  lng: detectLanguage(),
  fallbackLng: 'en',
  supportedLngs: ['en', 'zh-CN', 'zh-TW'],
  interpolation: { escapeValue: false },
  initAsync: false,
  // Screens re-render when a language's texts arrive.
  react: { bindI18nStore: 'added' },
});

/** Fetches a language's texts once; resolves when `i18n.t` can answer in it. */
export async function loadLanguage(language: Language): Promise<void> {
  if (language === 'en' || i18n.hasResourceBundle(language, 'translation')) return;
  const texts = await LOADERS[language]();
  i18n.addResourceBundle(language, 'translation', texts.default, true, true);
}

/** Switches the interface's language once its texts are there. */
export async function changeLanguage(language: Language): Promise<void> {
  await loadLanguage(language);
  await i18n.changeLanguage(language);
}

/** Resolves when the texts of the language detected at start are loaded (main.tsx waits for it). */
export const i18nReady = loadLanguage(detectLanguage());
