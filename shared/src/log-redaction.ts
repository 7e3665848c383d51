// What the access logs of the gateway and the api write for a request URL (issue 14 item 11,
// issue 17): one rule for both tiers, so a secret redacted in one log is redacted in the other.

/** Query parameters whose value may be a secret (token, access_token, resetCode, password, apiKey, …). */
const SECRET_PARAM = /token|passw|pwd|secret|code|key|sig|auth/i;
/** Characters of a token, and a value of them long enough to be one. */
const TOKEN_CHARS = /^[\w.~+=-]{20,}$/;
const HAS_DIGIT = /\d/;
const FILE_NAME = /\.[a-z\d]{1,5}$/i;
/**
 * Whether `url` has a run of 20 or more characters without a `/` (a path segment long enough to
 * be a token: TOKEN_CHARS). A loop over the characters: the regular expression `/[^/]{20}/` it
 * replaces took about 4 × as long on the short paths of every call (issue 34, part 14).
 */
function hasLongSegment(url: string): boolean {
  let run = 0;
  for (let i = 0; i < url.length; i++) {
    if (url.charCodeAt(i) === 47 /* '/' */) run = 0;
    else if (++run >= 20) return true;
  }
  return false;
}

/**
 * A value that looks like a token rather than a word, an id or a file name: 20 or more token
 * characters with a digit among them, or 32 or more of them (a 256-bit token in base64url has
 * 43, with or without digits). `unreadstatisticsbytype`, `1234567` and `3f2a….png` are kept.
 */
export function looksLikeSecret(value: string): boolean {
  if (!TOKEN_CHARS.test(value) || FILE_NAME.test(value)) return false;
  return HAS_DIGIT.test(value) || value.length >= 32;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A request URL safe to log: values of secret-named query parameters (token, access_token, code,
 * password, …) and token-like path segments and values become `[redacted]`; the rest is kept.
 * `/api/oauth/x?access_token=abc&page=2` → `/api/oauth/x?access_token=[redacted]&page=2`.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  // The usual call: no query and no segment of 20 characters or more (a secret has 20 or more,
  // and decoding only shortens a segment), so there is nothing to redact (issue 34: the hot path).
  if (at < 0 && !hasLongSegment(url)) return url;
  const path = (at < 0 ? url : url.slice(0, at))
    .split('/')
    .map((segment) => (looksLikeSecret(safeDecode(segment)) ? '[redacted]' : segment))
    .join('/');
  if (at < 0) return path;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return looksLikeSecret(safeDecode(pair)) ? '[redacted]' : pair;
      const name = safeDecode(pair.slice(0, eq));
      const value = safeDecode(pair.slice(eq + 1).replace(/\+/g, ' '));
      return SECRET_PARAM.test(name) || looksLikeSecret(value) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}
