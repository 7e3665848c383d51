import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LANGUAGES, parseLanguage, type Language } from '@pm/shared';

type Tree = { [key: string]: string | Tree };
const LOCALES_DIR = fileURLToPath(new URL('../../../locales/', import.meta.url));

function flatten(tree: Tree, prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') out.set(prefix + k, v);
    else flatten(v, `${prefix}${k}.`, out);
  }
  return out;
}

// Loaded once: the same locales/ files the console uses, so both say the same words.
const dictionaries = new Map<Language, Map<string, string>>(
  LANGUAGES.map((lang) => [lang, flatten(JSON.parse(readFileSync(`${LOCALES_DIR}${lang}.json`, 'utf8')) as Tree)]),
);

/** The request's language from its `lang` header (en, zh-CN, zh-TW); English otherwise. */
export function requestLanguage(header: string | string[] | undefined): Language {
  return parseLanguage(Array.isArray(header) ? header[0] : header) ?? 'en';
}

/**
 * The key with its plural suffix when `count` is a number and the locale has plural forms
 * (`rows_one` / `rows_other`, as i18next names them in the console), else the key itself.
 */
function pluralKey(lang: Language, key: string, params: Record<string, string | number>): string {
  if (typeof params.count !== 'number') return key;
  const dictionary = dictionaries.get(lang) ?? dictionaries.get('en');
  const form = `${key}_${new Intl.PluralRules(lang).select(params.count)}`;
  if (dictionary?.has(form)) return form;
  return dictionary?.has(`${key}_other`) ? `${key}_other` : key;
}

/** Translates a locales key with `{{name}}` parameters (and plural forms by `count`); falls back to English, then to the key. */
export function translate(lang: Language, key: string, params?: Record<string, string | number>): string {
  if (params !== undefined) return translated(lang, key, params);
  // Without parameters a key's text never changes (the catalogs are loaded once): made once per
  // language and key (issue 34, part 24: every envelope's `msg`).
  let texts = plainTexts.get(lang);
  if (!texts) plainTexts.set(lang, (texts = new Map()));
  let text = texts.get(key);
  if (text === undefined) {
    text = translated(lang, key, {});
    // Bounded: keys come from the code (a caller's own key would be a bug, not a flood).
    if (texts.size < 10_000) texts.set(key, text);
  }
  return text;
}

const plainTexts = new Map<Language, Map<string, string>>();

function translated(lang: Language, key: string, params: Record<string, string | number>): string {
  const k = pluralKey(lang, key, params);
  const en = pluralKey('en', key, params);
  const text = dictionaries.get(lang)?.get(k) ?? dictionaries.get('en')?.get(en) ?? key;
  return text.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => (name in params ? String(params[name]) : `{{${name}}}`));
}

export function hasMessage(key: string): boolean {
  const en = dictionaries.get('en');
  return (en?.has(key) || en?.has(`${key}_other`)) ?? false;
}
