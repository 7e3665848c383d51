import { describe, expect, it } from 'vitest';
import { draftErrors } from '../components/BasicSetUpPage';
import { timeZoneOptions } from '../utils/timeZones';

const draft = {
  name: 'Harbour View Garden',
  address: '',
  logo: '',
  timeZone: 'Asia/Hong_Kong',
  defaultLanguage: '',
  sosReannounceSeconds: '',
  voteReminderUnitMs: '',
};

describe('the basic set-up form', () => {
  it('when the name is empty or the SOS interval is out of 10–3600 s, then the form says so before sending', () => {
    expect(draftErrors({ ...draft, name: '  ' })).toEqual({ name: ['estateSettings.errors.nameRequired'] });
    expect(draftErrors({ ...draft, sosReannounceSeconds: '5' }).sosReannounceSeconds?.[0]).toBe(
      'estateSettings.errors.sosRange',
    );
    expect(draftErrors({ ...draft, sosReannounceSeconds: '1.5' }).sosReannounceSeconds).toBeDefined();
    expect(draftErrors({ ...draft, sosReannounceSeconds: '3600' })).toEqual({});
    // Empty: the environment's default.
    expect(draftErrors(draft)).toEqual({});
  });

  it('when the time zones are listed, then UTC comes first, each shows its offset, and the current one is there', () => {
    const options = timeZoneOptions('Asia/Hong_Kong', new Date('2026-01-15T00:00:00Z'));
    expect(options[0]).toEqual({ value: 'UTC', text: 'UTC' });
    expect(options.find((o) => o.value === 'Asia/Hong_Kong')?.text).toBe('Asia/Hong_Kong (UTC+08:00)');
    expect(options.find((o) => o.value === 'America/New_York')?.text).toBe('America/New_York (UTC-05:00)');
  });
});
