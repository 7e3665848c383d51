import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../../../../../locales/en.json';
import zhCN from '../../../../../locales/zh-CN.json';
import zhTW from '../../../../../locales/zh-TW.json';
import { relativeTime } from '../../ui/utils/relativeTime';

/** The widgets' times (SPEC §9) as each language reads them, through the console's locale files. */
async function read(language: string, value: Date, now: Date): Promise<string> {
  const i18n = createInstance();
  await i18n.init({
    lng: language,
    resources: { en: { translation: en }, 'zh-CN': { translation: zhCN }, 'zh-TW': { translation: zhTW } },
  });
  const r = relativeTime(value, now, 'Asia/Hong_Kong');
  return 'date' in r ? r.date : 'count' in r ? i18n.t(r.key, { count: r.count }) : i18n.t(r.key);
}

describe('relative times of the dashboard widgets in three languages', () => {
  const now = new Date('2026-11-24T04:00:00Z'); // 12:00 in Hong Kong
  const cases: [Date, string, string, string][] = [
    [new Date('2026-11-24T03:59:40Z'), 'just now', '刚刚', '剛剛'],
    [new Date('2026-11-24T03:55:00Z'), '5 minutes ago', '5 分钟前', '5 分鐘前'],
    [new Date('2026-11-24T03:59:00Z'), '1 minute ago', '1 分钟前', '1 分鐘前'],
    [new Date('2026-11-23T01:00:00Z'), 'yesterday', '昨天', '昨天'],
    [new Date('2026-11-22T01:00:00Z'), 'the day before yesterday', '前天', '前天'],
    [new Date('2026-11-20T01:05:00Z'), '2026-11-20 09:05', '2026-11-20 09:05', '2026-11-20 09:05'],
  ];
  it.each(cases)('when a row is from %s, then it reads %s / %s / %s', async (value, enText, cnText, twText) => {
    expect(await read('en', value, now)).toBe(enText);
    expect(await read('zh-CN', value, now)).toBe(cnText);
    expect(await read('zh-TW', value, now)).toBe(twText);
  });
  it('when a row is from earlier today, then it reads the time of day', async () => {
    expect(await read('zh-TW', new Date('2026-11-24T01:30:00Z'), now)).toBe('09:30');
  });
});
