import { timingSafeEqual } from 'node:crypto';
import { OAuthTokenFormSchema, TOKEN_REVOKED_HEADER } from '@pm/shared';
import { AppError } from '../../http/app-error';
import { route, type ApiModule } from '../../http/define-route';
import { keptAnswer } from '../../http/kept-mark';
import type { PublicContext } from '../../http/request-context';
import { WindowCounter } from '../../http/window-counter';
import { checkPuzzle, createPuzzle } from './captcha.service';
import { clientAddress } from './client-address';
import { deviceCookie } from './device-trust';
import { login, usernameOf } from './login.service';

/** Captcha pictures one address may ask for per minute (each costs the api a little CPU). */
export const PUZZLES_PER_MINUTE = 30;
const puzzleCounters = new WeakMap<object, WindowCounter>();
/** Each verified caller's current user (issue 34): the token cache keeps the caller, a change of it makes a new one. */
const currentUsers = new WeakMap<object, { accountInfo: { accId: number; personId: number; username: string } }>();

/** 429 once an address asked for more than PUZZLES_PER_MINUTE pictures (counted per api). */
function limitPuzzles(ctx: PublicContext): void {
  let counter = puzzleCounters.get(ctx.services);
  if (!counter) puzzleCounters.set(ctx.services, (counter = new WindowCounter(PUZZLES_PER_MINUTE, 60_000)));
  const seconds = counter.hit(clientAddress(ctx.req));
  if (seconds > 0) throw new AppError(429, 'errors.tooManyCaptchas', { seconds }, { retryAfter: seconds });
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** HTTP Basic client credentials of /oauth/token (OAUTH_CLIENT_ID / OAUTH_CLIENT_SECRET). */
function checkClient(ctx: PublicContext): void {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(ctx.req.headers.authorization?.trim() ?? '');
  const decoded = m ? Buffer.from(m[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const { oauthClientId, oauthClientSecret } = ctx.services.config;
  if (
    colon < 0 ||
    !sameSecret(decoded.slice(0, colon), oauthClientId) ||
    !sameSecret(decoded.slice(colon + 1), oauthClientSecret)
  ) {
    throw new AppError(401, 'errors.badClient');
  }
}

export const authModule: ApiModule = {
  name: 'auth',
  routes: [
    route('POST /oauth/token', async (ctx) => {
      checkClient(ctx);
      const parsed = OAuthTokenFormSchema.safeParse(ctx.req.body ?? {});
      if (!parsed.success) {
        const missing = parsed.error.issues[0];
        const field = String(missing.path[0] ?? '');
        if (field === 'username') throw AppError.badRequest('validation.accountRequired');
        if (field === 'password') throw AppError.badRequest('validation.passwordRequired');
        throw AppError.badRequest('validation.invalid', { detail: `${field}: ${missing.message}` });
      }
      const form = parsed.data;
      if (form.grant_type !== 'password') throw AppError.badRequest('errors.unsupportedGrant');
      const issued = await login(ctx.db, ctx.services.tokens, {
        ...form,
        address: clientAddress(ctx.req),
        cookies: ctx.req.headers.cookie,
      });
      ctx.res.setHeader('cache-control', 'no-store');
      // This browser is now a known device of the account (device-trust.ts).
      ctx.res.setHeader('set-cookie', deviceCookie(issued.account, ctx.req.secure));
      ctx.res.json({ access_token: issued.accessToken, token_type: 'bearer', expires_in: issued.expiresIn });
    }),
    route('POST /auth/signOut', async (ctx) => {
      await ctx.services.tokens.revoke(ctx.token);
      // The gateway ends this token's tabs when it sees the header (and strips it).
      ctx.res.setHeader(TOKEN_REVOKED_HEADER, '1');
      return null;
    }),
    route('GET /auth/current/user', async (ctx) => {
      const known = currentUsers.get(ctx.caller);
      if (known) return known;
      const cached = (ctx.caller as { username?: string }).username;
      const username = cached ?? (await usernameOf(ctx.db, ctx.caller.accountId));
      const answer = { accountInfo: { accId: ctx.caller.accountId, personId: ctx.caller.personId, username } };
      if (cached === undefined) return answer;
      // The same verified caller (token cache) answers the same: kept with it, dropped with it.
      currentUsers.set(ctx.caller, keptAnswer(answer));
      return answer;
    }),
    route('GET /captcha/puzzle', async (ctx) => {
      limitPuzzles(ctx);
      return createPuzzle(ctx.db);
    }),
    route('POST /captcha/check', async (ctx, { body }) => {
      const passed = await checkPuzzle(ctx.db, body.captchaId, body.captchaX);
      return { passed };
    }),
  ],
};
