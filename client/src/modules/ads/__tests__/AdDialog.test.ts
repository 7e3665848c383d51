import { describe, expect, it } from 'vitest';
import { adDraftErrors } from '../components/AdDialog';

const draft = {
  title: 'Spring sale',
  image: '/upload/files/ad/1.png',
  detailImage: '/upload/files/ad/2.png',
  linkKind: 'web' as const,
  url: 'https://example.com',
  screen: 'home' as const,
  start: '',
  end: '',
  enabled: true,
};

describe('the ad form', () => {
  it('when the ad picture, the detail image and the jump link are missing, then each says it is required (SPEC §5)', () => {
    expect(adDraftErrors({ ...draft, title: ' ', image: '', detailImage: '', url: '' })).toEqual({
      title: 'ads.errors.titleRequired',
      image: 'ads.errors.imageRequired',
      detailImage: 'ads.errors.detailImageRequired',
      link: 'ads.errors.linkRequired',
    });
  });

  it('when the jump link is javascript: or not http(s), then the link rule is named; an app screen needs no address', () => {
    expect(adDraftErrors({ ...draft, url: 'javascript:alert(1)' })).toEqual({ link: 'ads.errors.link' });
    expect(adDraftErrors({ ...draft, url: 'ftp://example.com' })).toEqual({ link: 'ads.errors.link' });
    expect(adDraftErrors({ ...draft, linkKind: 'app', url: '', screen: 'sos' })).toEqual({});
    expect(adDraftErrors(draft)).toEqual({});
  });
});
