import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The languages the console speaks (the `lang` request header). */
export const LANGUAGES = ['en', 'zh-CN', 'zh-TW'] as const;
export type Language = (typeof LANGUAGES)[number];

type Tree = { [key: string]: string | Tree };

const localesDir = join(import.meta.dirname, '../../locales');
// Read once at start-up: an error answer must not need a file descriptor (under load there may be none left).
const catalogs = new Map<Language, Tree>(
  LANGUAGES.map((lang) => [lang, JSON.parse(readFileSync(join(localesDir, `${lang}.json`), 'utf8')) as Tree]),
);

/** Picks the request's language from `lang` (exact) or `Accept-Language`; English otherwise. */
export function pickLanguage(lang: unknown, acceptLanguage?: unknown): Language {
  for (const candidate of [lang, acceptLanguage]) {
    if (typeof candidate !== 'string') continue;
    const hit = LANGUAGES.find((l) => candidate.toLowerCase().startsWith(l.toLowerCase()));
    if (hit) return hit;
    if (/^zh-(hk|tw|hant)/i.test(candidate)) return 'zh-TW';
    if (/^zh/i.test(candidate)) return 'zh-CN';
  }
  return 'en';
}

/** The sentence under a dotted key (`errors.gatewayTimeout`) in the given language. */
export function translate(lang: Language, key: string): string {
  let node: string | Tree | undefined = catalogs.get(lang);
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : key;
}
