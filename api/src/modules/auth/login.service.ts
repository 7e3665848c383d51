import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/open-database';
import { account } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { consumePuzzle } from './captcha.service';
import { knownDeviceId } from './device-trust';
import { captchaRequiredNext, clearLoginFailures, releaseAttempt, reserveAttempt } from './login-limiter';
import { DUMMY_HASH, verifyPassword } from './password';
import type { TokenService } from './token.service';

export interface LoginInput {
  username: string;
  password: string;
  /** The browser's address (client-address.ts). */
  address: string;
  /** The request's Cookie header: a known device of the account has its own allowance (device-trust.ts). */
  cookies?: string;
  captchaId?: string;
  captchaX?: number;
}

/** `name@<company id>`: how an account is named at sign-in when another company uses its name too. */
const COMPANY_QUALIFIED = /^(.+)@(\d{1,9})$/;

/**
 * The account a sign-in name means (README "Sign-in limits and account names"). Account names
 * are unique within a company: `name@<company id>` is that company's account; a plain `name` is
 * the oldest account of that name (every account of a company alone on its name signs in as
 * before). `key` is the name the limits count by: the same for both spellings of one account.
 */
export async function signInAccount(db: Db, typed: string) {
  const m = COMPANY_QUALIFIED.exec(typed);
  const [qualified] = m
    ? await db
        .select()
        .from(account)
        .where(and(eq(account.companyId, Number(m[2])), eq(account.username, m[1])))
        .limit(1)
    : [];
  const [acc] = qualified
    ? [qualified]
    : await db.select().from(account).where(eq(account.username, typed)).orderBy(asc(account.id)).limit(1);
  return { acc, key: acc ? `${acc.username}@${acc.companyId}` : typed };
}

/**
 * The password grant: limits (429) → captcha after 3 failures (428) → password check (401, the
 * same answer whether or not the account exists) → role check (403) → token. The limits hold
 * whether or not the captcha was solved: the slider is a convenience, not a control.
 */
export async function login(db: Db, tokens: TokenService, input: LoginInput) {
  const { address } = input;
  const { acc, key: username } = await signInAccount(db, input.username);
  const device = acc ? knownDeviceId(input.cookies, acc) : null;
  const attempt = await reserveAttempt(db, { username, address, device });
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
    throw new AppError(
      401,
      'errors.badCredentials',
      {},
      { captchaRequired: await captchaRequiredNext(db, username, device) },
    );
  }
  await clearLoginFailures(db, username, address, device);
  // A console account without a role may not sign in (SPEC §5); residents have no role by design.
  if (acc.kind === 'staff' && acc.roleId === null) throw new AppError(403, 'errors.noPagePermission');
  return { ...(await tokens.issue(acc.id)), account: { id: acc.id, passwordHash: acc.passwordHash } };
}

/** The username of a signed-in account (its token was verified, so it exists). */
export async function usernameOf(db: Db, accountId: number): Promise<string> {
  const [acc] = await db.select({ username: account.username }).from(account).where(eq(account.id, accountId));
  return acc.username;
}
