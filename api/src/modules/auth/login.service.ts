import { eq } from 'drizzle-orm';
import type { Db } from '../../db/open-database';
import { account } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { consumePuzzle } from './captcha.service';
import { clearLoginFailures, loginState, recordLoginFailure } from './login-limiter';
import { DUMMY_HASH, verifyPassword } from './password';
import type { TokenService } from './token.service';

export interface LoginInput {
  username: string;
  password: string;
  address: string;
  captchaId?: string;
  captchaX?: number;
}

/**
 * The password grant: rate limit (429) → captcha after 3 failures (428) → password check
 * (401, the same answer whether or not the account exists) → role check (403) → token.
 */
export async function login(db: Db, tokens: TokenService, input: LoginInput) {
  const { username, address } = input;
  const state = await loginState(db, username, address);
  if (state.retryAfterSeconds > 0) {
    throw new AppError(
      429,
      'errors.tooManyAttempts',
      { seconds: state.retryAfterSeconds },
      { retryAfter: state.retryAfterSeconds },
    );
  }
  if (state.captchaRequired) {
    if (!input.captchaId || input.captchaX === undefined) {
      throw new AppError(428, 'errors.captchaRequired', {}, { captchaRequired: true });
    }
    if (!(await consumePuzzle(db, input.captchaId, input.captchaX))) {
      await recordLoginFailure(db, username, address);
      throw new AppError(428, 'captcha.failed', {}, { captchaRequired: true });
    }
  }
  const [acc] = await db.select().from(account).where(eq(account.username, username)).limit(1);
  const passwordOk = await verifyPassword(input.password, acc?.passwordHash ?? DUMMY_HASH);
  if (!acc || !passwordOk || !acc.enabled) {
    await recordLoginFailure(db, username, address);
    const after = await loginState(db, username, address);
    throw new AppError(401, 'errors.badCredentials', {}, { captchaRequired: after.captchaRequired });
  }
  await clearLoginFailures(db, username);
  // A console account without a role may not sign in (SPEC §5); residents have no role by design.
  if (acc.kind === 'staff' && acc.roleId === null) throw new AppError(403, 'errors.noPagePermission');
  return tokens.issue(acc.id);
}
