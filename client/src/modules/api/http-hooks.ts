/**
 * What the http client needs from the rest of the console, registered at start-up so that
 * modules/api depends on nothing above it: the token, the language, and how to tell the person.
 */
export interface HttpHooks {
  token: () => string | undefined;
  language: () => string;
  /** Error and success messages (SPEC §8). */
  toast: (kind: 'error' | 'success', message: string) => void;
  /** HTTP 401 on a signed-in request. */
  unauthorized: () => void;
  /** Fallback message texts in the current language. */
  text: (key: 'generic' | 'network' | 'timeout') => string;
}

export const httpHooks: HttpHooks = {
  token: () => undefined,
  language: () => 'en',
  toast: () => undefined,
  unauthorized: () => undefined,
  text: (key) => ({ generic: 'Error', network: 'Network error', timeout: 'Timeout' })[key],
};

export function setHttpHooks(hooks: Partial<HttpHooks>): void {
  Object.assign(httpHooks, hooks);
}
