import { describe, expect, it } from 'vitest';
import { hasMessage, translate } from '../translate';

// The api's answers read the console's locale files: plural forms by `count` as i18next names them.
describe('translate', () => {
  it('when a message has plural forms, then the count picks the form in each language', () => {
    expect(translate('en', 'buildings.import.refused', { count: 1 })).toMatch(/^1 row has problems/);
    expect(translate('en', 'buildings.import.refused', { count: 3 })).toMatch(/^3 rows have problems/);
    expect(translate('zh-CN', 'buildings.import.refused', { count: 1 })).toMatch(/^有 1 行存在问题/);
    expect(translate('zh-TW', 'buildings.import.refused', { count: 2 })).toMatch(/^有 2 列存在問題/);
    expect(hasMessage('buildings.import.refused')).toBe(true);
  });

  it('when a message has no plural forms, then it is used as it is, with its parameters', () => {
    expect(translate('en', 'upload.errors.tooLarge', { limit: 5 })).toContain('5');
    expect(translate('en', 'no.such.key')).toBe('no.such.key');
  });
});
