import { and, count, eq, gt, min } from 'drizzle-orm';
import { LOGIN_FAILURES_BEFORE_CAPTCHA } from '@pm/shared';
import type { Db } from '../../db/open-database';
import { loginFailure } from '../../db/schema';

/** Failures are counted over this window. */
export const FAILURE_WINDOW_MS = 15 * 60_000;
/** Failures of one account name from one address before 429. */
export const MAX_FAILURES_PER_ACCOUNT_ADDRESS = 10;
/** Failures from one address (any account names) before 429. */
export const MAX_FAILURES_PER_ADDRESS = 30;

export interface LoginState {
  /** Seconds until another attempt is allowed; 0 = allowed now. */
  retryAfterSeconds: number;
  captchaRequired: boolean;
}

/**
 * Counts failed sign-ins per account name and per address in the database (so every api
 * instance sees the same counts). The name is counted whether or not such an account
 * exists, so answers never reveal which accounts exist.
 */
export async function loginState(db: Db, username: string, address: string): Promise<LoginState> {
  const since = new Date(Date.now() - FAILURE_WINDOW_MS);
  const key = username.toLowerCase();
  const [pair] = await db
    .select({ n: count(), first: min(loginFailure.at) })
    .from(loginFailure)
    .where(and(eq(loginFailure.username, key), eq(loginFailure.address, address), gt(loginFailure.at, since)));
  const [byAddress] = await db
    .select({ n: count(), first: min(loginFailure.at) })
    .from(loginFailure)
    .where(and(eq(loginFailure.address, address), gt(loginFailure.at, since)));
  const [byName] = await db
    .select({ n: count() })
    .from(loginFailure)
    .where(and(eq(loginFailure.username, key), gt(loginFailure.at, since)));
  const wait = (first: Date | null) =>
    first ? Math.max(1, Math.ceil((first.getTime() + FAILURE_WINDOW_MS - Date.now()) / 1000)) : 1;
  let retryAfterSeconds = 0;
  if (pair.n >= MAX_FAILURES_PER_ACCOUNT_ADDRESS) retryAfterSeconds = wait(pair.first);
  else if (byAddress.n >= MAX_FAILURES_PER_ADDRESS) retryAfterSeconds = wait(byAddress.first);
  return { retryAfterSeconds, captchaRequired: byName.n >= LOGIN_FAILURES_BEFORE_CAPTCHA };
}

export async function recordLoginFailure(db: Db, username: string, address: string): Promise<void> {
  await db.insert(loginFailure).values({ username: username.toLowerCase(), address });
}

/** A successful sign-in forgets the failures of that name (from every address). */
export async function clearLoginFailures(db: Db, username: string): Promise<void> {
  await db.delete(loginFailure).where(eq(loginFailure.username, username.toLowerCase()));
}
