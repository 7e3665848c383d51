import sanitizeHtml from 'sanitize-html';
import { FILES_PREFIX } from '../upload/upload-store';

/**
 * The HTML residents are shown, cut down to an allow-list (sanitize-html): text formatting,
 * lists, headings, links (http, https, mailto only) and images served by the product's own
 * upload service (`/upload/files/…`, or `/api/upload/files/…` as the console writes them).
 * Scripts, event handlers (onerror …), styles, `javascript:` links and remote images are removed.
 */
const SEGMENT = '[A-Za-z0-9_-][A-Za-z0-9._-]*'; // never "." or "..": no way out of the upload folder
const OWN_UPLOAD = new RegExp(`^(/api)?${FILES_PREFIX}(${SEGMENT}/)*${SEGMENT}$`);

export function sanitizeContent(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [
      'p',
      'br',
      'strong',
      'b',
      'em',
      'i',
      'u',
      's',
      'blockquote',
      'code',
      'pre',
      'hr',
      'h1',
      'h2',
      'h3',
      'h4',
      'ul',
      'ol',
      'li',
      'a',
      'img',
    ],
    allowedAttributes: { a: ['href', 'target', 'rel'], img: ['src', 'alt'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: [] },
    allowProtocolRelative: false,
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }) },
    exclusiveFilter: (frame) => frame.tag === 'img' && !OWN_UPLOAD.test(frame.attribs.src ?? ''),
  });
}

/** Whether sanitized HTML still shows anything (text or an image). */
export function hasVisibleContent(html: string): boolean {
  return /<img\b/.test(html) || sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).trim().length > 0;
}
