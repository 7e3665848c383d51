import { describe, expect, it } from 'vitest';
import { isDay, isTimeZoneName, readAdLink, voteReminderUnitOf, VOTE_REMINDER_UNITS } from '../estate-setup';

describe('jump links of ads', () => {
  it.each([
    ['https://example.com/sale?x=1', { kind: 'web', url: 'https://example.com/sale?x=1' }],
    ['http://shop.example.hk', { kind: 'web', url: 'http://shop.example.hk' }],
    ['HTTPS://Example.com', { kind: 'web', url: 'HTTPS://Example.com' }],
    ['app://announcements', { kind: 'app', screen: 'announcements' }],
    ['APP://join-house', { kind: 'app', screen: 'join-house' }],
  ])('when the link is %s, then it is read as a page or an app screen', (link, target) => {
    expect(readAdLink(link)).toEqual(target);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://example.com',
    'mailto:a@b.c',
    '//example.com/x',
    '/relative/path',
    'http:example.com',
    'https://',
    'https://exa mple.com',
    'app://',
    'app://settings',
    'app://announcements/12',
    'x'.repeat(501),
    '',
  ])('when the link is %j, then it is refused', (link) => {
    expect(readAdLink(link)).toBeNull();
  });
});

describe('settings values', () => {
  it('when a time zone is named, then only names this runtime knows pass', () => {
    expect(isTimeZoneName('Asia/Hong_Kong')).toBe(true);
    expect(isTimeZoneName('UTC')).toBe(true);
    expect(isTimeZoneName('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZoneName("UTC'; drop table x")).toBe(false);
  });

  it('when a day is written, then only real yyyy-MM-dd days pass', () => {
    expect(isDay('2026-02-28')).toBe(true);
    expect(isDay('2026-02-30')).toBe(false);
    expect(isDay('2026-2-3')).toBe(false);
  });

  it('when a reminder unit is a minute, an hour or a day, then it is named; another length is not', () => {
    expect(voteReminderUnitOf(VOTE_REMINDER_UNITS.day)).toBe('day');
    expect(voteReminderUnitOf(200)).toBeNull();
  });
});
