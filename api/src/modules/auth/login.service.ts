import { eq } from 'drizzle-orm';
import type { Db } from '../../db/open-database';
import { account } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { consumePuzzle } from './captcha.service';
import { isKnownDevice } from './device-trust';
import { captchaRequiredNext, clearLoginFailures, releaseAttempt, reserveAttempt } from './login-limiter';
import { DUMMY_HASH, verifyPassword } from './password';
import type { TokenService } from './token.service';

export interface LoginInput {
  username: string;
  password: string;
  /** The browser's address (client-address.ts). */
  address: string;
  /** The request's Cookie header: a known device of the account skips the account-wide wait. */
  cookies?: string;
  captchaId?: string;
  captchaX?: number;
}

/**
 * The password grant: limits (429) → captcha after 3 failures (428) → password check (401, the
 * same answer whether or not the account exists) → role check (403) → token. The limits hold
 * whether or not the captcha was solved: the slider is a convenience, not a control.
 */
export async function login(db: Db, tokens: TokenService, input: LoginInput) {
  const { username, address } = input;
  const [acc] = await db.select().from(account).where(eq(account.username, username)).limit(1);
  const attempt = await reserveAttempt(db, {
    username,
    address,
    trustedDevice: !!acc && isKnownDevice(input.cookies, acc),
  });
  if ('retryAfterSeconds' in attempt) {
    const seconds = attempt.retryAfterSeconds;
    throw new AppError(429, 'errors.tooManyAttempts', { seconds }, { retryAfter: seconds });
  }
  if (attempt.captchaRequired) {
    if (!input.captchaId || input.captchaX === undefined) {
      await releaseAttempt(db, attempt);
      throw new AppError(428, 'errors.captchaRequired', {}, { captchaRequired: true });
    }
    // A missed captcha counts as a failure (the reserved row stays).
    if (!(await consumePuzzle(db, input.captchaId, input.captchaX))) {
      throw new AppError(428, 'captcha.failed', {}, { captchaRequired: true });
    }
  }
  const passwordOk = await verifyPassword(input.password, acc?.passwordHash ?? DUMMY_HASH);
  if (!acc || !passwordOk || !acc.enabled) {
    throw new AppError(401, 'errors.badCredentials', {}, { captchaRequired: await captchaRequiredNext(db, username) });
  }
  await clearLoginFailures(db, username, address);
  // A console account without a role may not sign in (SPEC §5); residents have no role by design.
  if (acc.kind === 'staff' && acc.roleId === null) throw new AppError(403, 'errors.noPagePermission');
  return { ...(await tokens.issue(acc.id)), account: { id: acc.id, passwordHash: acc.passwordHash } };
}

/** The username of a signed-in account (its token was verified, so it exists). */
export async function usernameOf(db: Db, accountId: number): Promise<string> {
  const [acc] = await db.select({ username: account.username }).from(account).where(eq(account.id, accountId));
  return acc.username;
}
