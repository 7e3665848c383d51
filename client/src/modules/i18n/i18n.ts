import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../../../../locales/en.json';
import zhCN from '../../../../locales/zh-CN.json';
import zhTW from '../../../../locales/zh-TW.json';
import { detectLanguage } from './utils/detectLanguage';

/** One i18next instance for the console; resources are the repository's locales/ files. */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en }, 'zh-CN': { translation: zhCN }, 'zh-TW': { translation: zhTW } },
  lng: detectLanguage(),
  fallbackLng: 'en',
  supportedLngs: ['en', 'zh-CN', 'zh-TW'],
  interpolation: { escapeValue: false },
  initAsync: false,
});
