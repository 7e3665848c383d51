import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../../../../../locales/en.json';
import { accountText } from '../components/accountText';

/** The English texts, looked up by key as i18next does. */
const t = ((key: string) =>
  key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], en) ?? key) as unknown as TFunction;

describe('account type display (SPEC §2)', () => {
  it('when the account is a phone account, then it shows the telephone number', () => {
    expect(accountText(t, { accountType: 4, tel: '+852 6100 0137' })).toBe('Phone (+852 6100 0137)');
  });
  it('when the account is another type, then it shows the type only, even with a number on file', () => {
    expect(accountText(t, { accountType: 1, tel: '+852 6100 0137' })).toBe('WeChat');
    expect(accountText(t, { accountType: 3, tel: null })).toBe('Apple');
  });
});
