import { describe, expect, it } from 'vitest';
import { pickLanguage, translate } from '../locale-messages';

describe('locale messages', () => {
  it('when the lang header names a supported language, then that language is used', () => {
    expect(pickLanguage('zh-TW')).toBe('zh-TW');
    expect(pickLanguage('zh-CN')).toBe('zh-CN');
    expect(pickLanguage('en')).toBe('en');
  });

  it('when only Accept-Language is given, then Chinese variants map to the right script and the rest to English', () => {
    expect(pickLanguage(undefined, 'zh-HK,zh;q=0.9')).toBe('zh-TW');
    expect(pickLanguage(undefined, 'zh')).toBe('zh-CN');
    expect(pickLanguage(undefined, 'fr-FR')).toBe('en');
    expect(pickLanguage(undefined, undefined)).toBe('en');
  });

  it('when a gateway error is translated, then each language gets its own sentence from locales/', () => {
    const sentences = (['en', 'zh-CN', 'zh-TW'] as const).map((l) => translate(l, 'errors.apiUnavailable'));
    expect(new Set(sentences).size).toBe(3);
    expect(translate('en', 'errors.gatewayTimeout')).toBe('The server took too long to answer, please try again');
  });

  it('when a key is missing, then the key itself comes back instead of a crash', () => {
    expect(translate('en', 'errors.noSuchKey')).toBe('errors.noSuchKey');
  });
});
