import { pinyin } from 'pinyin-pro';

/**
 * Pinyin keys of a name for the address book's and chat list's Pinyin search (settings drawer,
 * SPEC §2): full Pinyin and initials, lower case, e.g. 张三 → "zhangsan zs" (surnames read as
 * surnames: 单 → shan). A name without Chinese characters has no keys (''): its letters are
 * matched by the plain name search already.
 */
export function pinyinKeys(name: string): string {
  if (!/\p{Script=Han}/u.test(name)) return '';
  const syllables = pinyin(name, { toneType: 'none', type: 'array', surname: 'head', nonZh: 'removed' });
  const full = syllables
    .join('')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
  const initials = syllables
    .map((s) => s[0] ?? '')
    .join('')
    .toLowerCase();
  return `${full} ${initials}`;
}

/** A search key as the Pinyin keys are written (letters only, lower case); undefined when none is left. */
export function pinyinQuery(key: string | undefined): string | undefined {
  const letters = (key ?? '').toLowerCase().replace(/[^a-z]/g, '');
  return letters.length > 0 ? letters : undefined;
}
