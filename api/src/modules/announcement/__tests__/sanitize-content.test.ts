import { describe, expect, it } from 'vitest';
import { sanitizeContent } from '../sanitize-content';

// sanitize-html is pinned to 2.17.5, the last release whose `engines` allow the Node this
// product declares (README "Decisions"). The advisories fixed after it are about tags this
// allow-list never lets through: raw-text elements (`textarea`, `xmp`: mutation XSS through
// `</textarea/>`, fixed in 2.17.6) and SVG animations of URL attributes (SMIL, fixed in 2.17.7).
// These payloads prove it; a wider allow-list must move to a newer release first.
const SCRIPTED = /<(script|textarea|xmp|svg|animate|set|iframe|style|noscript)\b|\son\w+\s*=|javascript:/i;

describe('announcement content sanitizer', () => {
  it.each([
    ['textarea mutation', '<textarea></textarea/><img src=x onerror=alert(1)></textarea>'],
    ['textarea attribute break-out', '<textarea><p title="</textarea><img src=x onerror=alert(1)>"></p></textarea>'],
    ['xmp raw text', '<xmp></xmp/><img src=x onerror=alert(1)></xmp>'],
    ['noscript raw text', '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></p></noscript>'],
    [
      'SVG SMIL href',
      '<svg><a><animate attributeName="href" values="javascript:alert(1)" /><text y="20">x</text></a></svg>',
    ],
    ['SVG set href', '<svg><a><set attributeName="href" to="javascript:alert(1)" /><text>x</text></a></svg>'],
    ['script', '<p>hi<script>alert(1)</script></p>'],
    ['javascript link', '<a href="javascript:alert(1)">x</a>'],
    ['event handler', '<p onclick="alert(1)">x</p>'],
  ])('when the content holds a %s, then nothing scripted survives', (_, html) => {
    expect(sanitizeContent(html)).not.toMatch(SCRIPTED);
  });

  it('when the content is ordinary formatting, then it is kept', () => {
    expect(sanitizeContent('<p><strong>Lift</strong> repair on <em>Monday</em></p><ul><li>A</li></ul>')).toBe(
      '<p><strong>Lift</strong> repair on <em>Monday</em></p><ul><li>A</li></ul>',
    );
    expect(sanitizeContent('<a href="https://example.com">site</a>')).toBe(
      '<a href="https://example.com" rel="noopener noreferrer" target="_blank">site</a>',
    );
  });
});
