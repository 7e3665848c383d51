import { createHash } from 'node:crypto';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { LOGIN_FAILURES_BEFORE_CAPTCHA } from '@pm/shared';
import type { Db, Tx } from '../../db/open-database';
import { loginFailure } from '../../db/schema';

/** Failures are counted over this window. */
export const FAILURE_WINDOW_MS = 15 * 60_000;
/** Failures of one account name from one address before 429 for the rest of the window. */
export const MAX_FAILURES_PER_ACCOUNT_ADDRESS = 10;
/** Failures from one address (any account names) before 429: spraying many names is slow too. */
export const MAX_FAILURES_PER_ADDRESS = 30;
/**
 * Failures of one account name from every address together before each further attempt waits
 * (1 s after the 10th, doubling with each failure up to MAX_ACCOUNT_WAIT_MS): guessing one
 * account from many addresses gets a few tries a minute. A device that signed in to the account
 * before skips this wait (MAX_FAILURES_PER_DEVICE), so a stranger's guessing never locks the owner out.
 */
export const FREE_FAILURES_PER_ACCOUNT = 10;
export const MAX_ACCOUNT_WAIT_MS = 60_000;
/**
 * Failures from one known device of an account (a browser that signed in to it before, see
 * device-trust.ts) before 429 for the rest of the window. Attempts from a known device count
 * only here (OWASP "device cookies"): the account-wide wait and the per-address limits, which
 * strangers fill, do not apply to them, and their failures do not fill those.
 */
export const MAX_FAILURES_PER_DEVICE = 10;

export interface Attempt {
  /** The failure row reserved for this attempt: kept when it fails, released otherwise. */
  failureId: number;
  captchaRequired: boolean;
}
export type AttemptOrWait = Attempt | { retryAfterSeconds: number };

/** A 64-bit advisory-lock key for a string (the same on every api instance). */
function lockKey(text: string): string {
  return createHash('sha256').update(text).digest().readBigInt64BE(0).toString();
}

/** The wait before the next attempt on an account name that failed `failures` times (ms). */
export function accountWaitMs(failures: number): number {
  if (failures < FREE_FAILURES_PER_ACCOUNT) return 0;
  return Math.min(MAX_ACCOUNT_WAIT_MS, 1000 * 2 ** (failures - FREE_FAILURES_PER_ACCOUNT));
}

/** The failures of unknown devices in the window, per name, address and both. */
async function counts(tx: Tx, username: string, address: string) {
  const since = new Date(Date.now() - FAILURE_WINDOW_MS);
  const name = sql`${loginFailure.username} = ${username}`;
  const from = sql`${loginFailure.address} = ${address}`;
  const [row] = await tx
    .select({
      pair: sql<number>`count(*) filter (where ${name} and ${from})`.mapWith(Number),
      pairFirst: sql<string | Date | null>`min(${loginFailure.at}) filter (where ${name} and ${from})`,
      address: sql<number>`count(*) filter (where ${from})`.mapWith(Number),
      addressFirst: sql<string | Date | null>`min(${loginFailure.at}) filter (where ${from})`,
      name: sql<number>`count(*) filter (where ${name})`.mapWith(Number),
      nameLast: sql<string | Date | null>`max(${loginFailure.at}) filter (where ${name})`,
    })
    .from(loginFailure)
    .where(
      and(
        gt(loginFailure.at, since),
        isNull(loginFailure.device),
        or(eq(loginFailure.username, username), eq(loginFailure.address, address)),
      ),
    );
  const time = (t: string | Date | null) => (t === null ? 0 : new Date(t).getTime());
  return {
    pair: row.pair,
    pairFirst: time(row.pairFirst),
    address: row.address,
    addressFirst: time(row.addressFirst),
    name: row.name,
    nameLast: time(row.nameLast),
  };
}

/** The failures of one known device in the window: how many, and the first. */
async function deviceCounts(tx: Tx, device: string) {
  const since = new Date(Date.now() - FAILURE_WINDOW_MS);
  const [row] = await tx
    .select({
      n: sql<number>`count(*)`.mapWith(Number),
      first: sql<string | Date | null>`min(${loginFailure.at})`,
    })
    .from(loginFailure)
    .where(and(eq(loginFailure.device, device), gt(loginFailure.at, since)));
  return { n: row.n, first: row.first === null ? 0 : new Date(row.first).getTime() };
}

/**
 * Decides whether a sign-in attempt may go ahead and, if so, records it as a failure before the
 * password is checked, under a lock on the account name and the address (or on the known device):
 * concurrent attempts are counted one after another, so a burst cannot slip past the limits. The
 * name is counted whether or not such an account exists, so answers never reveal which accounts
 * exist. `device`: the id of a valid known-device cookie of this account the attempt carried
 * (device-trust.ts), or null; a known device has its own allowance (MAX_FAILURES_PER_DEVICE).
 */
export async function reserveAttempt(
  db: Db,
  input: { username: string; address: string; device: string | null },
): Promise<AttemptOrWait> {
  const username = input.username.toLowerCase();
  const { address, device } = input;
  return db.transaction(async (tx) => {
    const now = Date.now();
    if (device !== null) {
      await tx.execute(sql`select pg_advisory_xact_lock(${lockKey(`login-device:${device}`)}::bigint)`);
      const d = await deviceCounts(tx, device);
      const wait = d.n >= MAX_FAILURES_PER_DEVICE ? d.first + FAILURE_WINDOW_MS - now : 0;
      if (wait > 0) return { retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
      await tx
        .delete(loginFailure)
        .where(and(eq(loginFailure.device, device), lt(loginFailure.at, new Date(now - FAILURE_WINDOW_MS))));
      const [row] = await tx
        .insert(loginFailure)
        .values({ username, address, device })
        .returning({ id: loginFailure.id });
      return { failureId: row.id, captchaRequired: d.n >= LOGIN_FAILURES_BEFORE_CAPTCHA };
    }
    // Ascending order, so two attempts never wait for each other's second lock.
    const keys = [lockKey(`login-name:${username}`), lockKey(`login-address:${address}`)].sort();
    for (const key of keys) await tx.execute(sql`select pg_advisory_xact_lock(${key}::bigint)`);
    const n = await counts(tx, username, address);
    const waits = [
      n.pair >= MAX_FAILURES_PER_ACCOUNT_ADDRESS ? n.pairFirst + FAILURE_WINDOW_MS - now : 0,
      n.address >= MAX_FAILURES_PER_ADDRESS ? n.addressFirst + FAILURE_WINDOW_MS - now : 0,
      n.nameLast + accountWaitMs(n.name) - now,
    ];
    const wait = Math.max(...waits);
    if (wait > 0) return { retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
    // Failures older than the window of this name and address are no use any more.
    const old = new Date(now - FAILURE_WINDOW_MS);
    await tx
      .delete(loginFailure)
      .where(and(lt(loginFailure.at, old), or(eq(loginFailure.username, username), eq(loginFailure.address, address))));
    const [row] = await tx.insert(loginFailure).values({ username, address }).returning({ id: loginFailure.id });
    return { failureId: row.id, captchaRequired: n.name >= LOGIN_FAILURES_BEFORE_CAPTCHA };
  });
}

/** The attempt did not check a password after all (no captcha sent): it does not count. */
export async function releaseAttempt(db: Db, attempt: Attempt): Promise<void> {
  await db.delete(loginFailure).where(eq(loginFailure.id, attempt.failureId));
}

/** Whether the next attempt on this name (from this known device, if any) will need a captcha (told with a 401). */
export async function captchaRequiredNext(db: Db, username: string, device: string | null): Promise<boolean> {
  const since = new Date(Date.now() - FAILURE_WINDOW_MS);
  const whose =
    device === null
      ? and(eq(loginFailure.username, username.toLowerCase()), isNull(loginFailure.device))
      : eq(loginFailure.device, device);
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(loginFailure)
    .where(and(whose, gt(loginFailure.at, since)));
  return row.n >= LOGIN_FAILURES_BEFORE_CAPTCHA;
}

/**
 * A successful sign-in forgets that name's failures from this address (and those of the known
 * device it came from). Failures from other addresses stay: the owner signing in does not hand a guesser from elsewhere a fresh allowance.
 */
export async function clearLoginFailures(
  db: Db,
  username: string,
  address: string,
  device: string | null,
): Promise<void> {
  const thisAddress = and(eq(loginFailure.username, username.toLowerCase()), eq(loginFailure.address, address));
  await db.delete(loginFailure).where(device === null ? thisAddress : or(thisAddress, eq(loginFailure.device, device)));
}
