import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** How long a browser stays a known device of an account after signing in to it. */
export const DEVICE_TRUST_DAYS = 90;
const DEVICE_TRUST_MS = DEVICE_TRUST_DAYS * 24 * 3600 * 1000;

/**
 * A device that signed in to an account before gets a cookie `pm_device_<accId>` (HttpOnly,
 * SameSite=Strict, no Path: the browser sends it back to the sign-in call only). Its value is
 * `<issued seconds>.<HMAC>` keyed with the account's password hash: no table, every api
 * instance can check it, and a password change or reset forgets every device. With it, sign-in
 * has the device's own allowance instead of the account-wide wait and the per-address limits of
 * login-limiter.ts, which strangers fill (README "Sign-in limits and account names").
 */
export function deviceCookieName(accountId: number): string {
  return `pm_device_${accountId}`;
}

function mac(account: { id: number; passwordHash: string }, issued: number): string {
  return createHmac('sha256', account.passwordHash).update(`device:${account.id}:${issued}`).digest('base64url');
}

/** The Set-Cookie value that makes this browser a known device of the account. */
export function deviceCookie(account: { id: number; passwordHash: string }, secure: boolean): string {
  const issued = Math.floor(Date.now() / 1000);
  const value = `${issued}.${mac(account, issued)}`;
  return [
    `${deviceCookieName(account.id)}=${value}`,
    `Max-Age=${DEVICE_TRUST_DAYS * 24 * 3600}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** The value of one cookie in a Cookie header. */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The id of the known device the request's cookies show for this account (a browser that signed
 * in to it, with its current password, in the last DEVICE_TRUST_DAYS), or null. The id is a hash
 * of the cookie (never the cookie itself, which is a credential): its failures are counted by it.
 */
export function knownDeviceId(
  cookieHeader: string | undefined,
  account: { id: number; passwordHash: string },
): string | null {
  const value = cookieValue(cookieHeader, deviceCookieName(account.id));
  const m = value ? /^(\d{1,12})\.([\w-]{43})$/.exec(value) : null;
  if (!m) return null;
  const issued = Number(m[1]);
  if (Date.now() - issued * 1000 > DEVICE_TRUST_MS) return null;
  const expected = Buffer.from(mac(account, issued));
  const given = Buffer.from(m[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return createHash('sha256').update(value!).digest('base64url').slice(0, 22);
}
