import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

// helmet (well kept, the usual choice for Express) rather than headers written by hand: it keeps
// up with what browsers understand. Its defaults are narrowed below where they would break a
// deployment: no upgrade-insecure-requests and no HSTS (the gateway speaks plain HTTP; a TLS proxy
// in front sets HSTS), and api answers stay loadable from other origins (wall screens, apps).
const common: HelmetOptions = {
  strictTransportSecurity: false,
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
};

/**
 * The console's pages and assets. Scripts only from the gateway itself (no inline script, no
 * eval); images only from the gateway (uploads are served under /api) and from data:/blob: URLs
 * the console makes itself (captcha, avatar crop), so an image URL from elsewhere, a tracking
 * pixel, is not loaded. Inline styles stay allowed: UI components (the avatar cropper, pages of
 * the menu) insert <style> elements, and a style cannot run code. Sockets and calls go to the
 * same origin ('self' covers ws:). tests/e2e/security-policy.test.ts checks it in Chromium.
 */
export const consoleSecurityHeaders: Middleware = helmet({
  ...common,
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      mediaSrc: ["'self'", 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
});

/**
 * The headers a helmet middleware writes, worked out once, as (name, value, …) with lower-case
 * names: helmet's are the same for every request (no nonce), so the proxied calls, the hot path,
 * write a ready list with the answer's head instead of running it per call (issue 34). What it
 * removes (X-Powered-By) the gateway never sets on a proxied answer.
 */
function fixedHeaders(middleware: Middleware): readonly string[] {
  const list: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      for (const v of Array.isArray(value) ? value : [value]) list.push(name.toLowerCase(), String(v));
    },
    removeHeader: () => undefined,
    getHeader: () => undefined,
  } as unknown as ServerResponse;
  let ready = false;
  middleware({ headers: {} } as IncomingMessage, recorder, () => (ready = true));
  if (!ready) throw new Error('security headers: the middleware did not finish at once');
  return list;
}

/**
 * Answers of the api through /api: JSON and uploaded files. Nothing in them may run or be framed
 * (an uploaded file opened directly is inert); the api's own headers, where it sets them, win
 * (the proxy writes them with the answer's head: `createApiProxy`'s `answerHeaders`).
 */
export const apiSecurityHeaders: readonly string[] = fixedHeaders(
  helmet({
    ...common,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], sandbox: [] },
    },
    crossOriginResourcePolicy: false,
    crossOriginOpenerPolicy: false,
  }),
);
