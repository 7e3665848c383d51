import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

type Tree = { [key: string]: string | Tree };
const load = (lang: string): Tree => JSON.parse(readFileSync(join(__dirname, `${lang}.json`), 'utf8'));
const flat = (t: Tree, prefix = ''): Record<string, string> =>
  Object.entries(t).reduce<Record<string, string>>((acc, [k, v]) => {
    if (typeof v === 'string') acc[prefix + k] = v;
    else Object.assign(acc, flat(v, `${prefix}${k}.`));
    return acc;
  }, {});

const en = flat(load('en'));
const cn = flat(load('zh-CN'));
const tw = flat(load('zh-TW'));
const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

// Characters written differently in Simplified and Traditional Chinese that the console uses.
const SIMPLIFIED_ONLY = '们这说请设语录权务号码户报处态单层车发级删编辑项选择账员门关闭开时间内输认证过'.split('');
const TRADITIONAL_ONLY = '們這說請設語錄權務號碼戶報處態單層車發級刪編輯項選擇帳員門關閉開時間內輸認證過'.split('');
if (SIMPLIFIED_ONLY.length !== TRADITIONAL_ONLY.length) throw new Error('character lists must pair up');

describe('locales', () => {
  it('when the three files are compared, then they have the same keys', () => {
    expect(Object.keys(cn).sort()).toEqual(Object.keys(en).sort());
    expect(Object.keys(tw).sort()).toEqual(Object.keys(en).sort());
  });

  it('when a value is read, then it is not empty', () => {
    for (const dict of [en, cn, tw]) for (const [k, v] of Object.entries(dict)) expect(v.trim(), k).not.toBe('');
  });

  it('when a message has placeholders, then every language has the same ones', () => {
    for (const k of Object.keys(en)) {
      expect(placeholders(cn[k] ?? ''), k).toEqual(placeholders(en[k]));
      expect(placeholders(tw[k] ?? ''), k).toEqual(placeholders(en[k]));
    }
  });

  it('when Chinese text is written, then zh-TW uses Traditional and zh-CN Simplified characters', () => {
    for (const [k, v] of Object.entries(tw)) {
      if (k.startsWith('languages.')) continue;
      const bad = SIMPLIFIED_ONLY.filter((c) => v.includes(c));
      expect(bad, `zh-TW ${k}: ${v}`).toEqual([]);
    }
    for (const [k, v] of Object.entries(cn)) {
      if (k.startsWith('languages.')) continue;
      const bad = TRADITIONAL_ONLY.filter((c) => v.includes(c) && !SIMPLIFIED_ONLY.includes(c));
      expect(bad, `zh-CN ${k}: ${v}`).toEqual([]);
    }
  });

  it('when an English message exists, then the Chinese ones are translations, not copies', () => {
    const copied = Object.keys(en).filter(
      (k) => /[a-z]{4,}/.test(en[k]) && cn[k] === en[k] && !k.startsWith('languages.'),
    );
    expect(copied).toEqual([]);
  });
});
