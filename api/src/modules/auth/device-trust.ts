import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a browser stays a known device of an account after signing in to it. */
export const DEVICE_TRUST_DAYS = 90;
const DEVICE_TRUST_MS = DEVICE_TRUST_DAYS * 24 * 3600 * 1000;

/**
 * A device that signed in to an account before gets a cookie `pm_device_<accId>` (HttpOnly,
 * SameSite=Strict, no Path: the browser sends it back to the sign-in call only). Its value is
 * `<issued seconds>.<HMAC>` keyed with the account's password hash: no table, every api
 * instance can check it, and a password change or reset forgets every device. With it, sign-in
 * skips the account-wide wait of login-limiter.ts (README "Decisions", sign-in limits).
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

/** Whether the request's cookies show a device that signed in to this account (and its current password) before. */
export function isKnownDevice(
  cookieHeader: string | undefined,
  account: { id: number; passwordHash: string },
): boolean {
  const value = cookieValue(cookieHeader, deviceCookieName(account.id));
  const m = value ? /^(\d{1,12})\.([\w-]{43})$/.exec(value) : null;
  if (!m) return false;
  const issued = Number(m[1]);
  if (Date.now() - issued * 1000 > DEVICE_TRUST_MS) return false;
  const expected = Buffer.from(mac(account, issued));
  const given = Buffer.from(m[2]);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
