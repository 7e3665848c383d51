import { randomBytes } from 'node:crypto';

/**
 * Invite codes of units, parking spaces and shops (DESIGN §5 "join"): 128 random bits from the
 * operating system's CSPRNG, written as 26 characters of Crockford base32 (digits and capitals
 * without I, L, O, U, so a code read aloud or typed from paper is not misread). Guessing one is
 * hopeless (2^128 candidates per house), and a wrong guess is also limited per account.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const INVITE_CODE_LENGTH = 26;

/** A new random invite code. */
export function newInviteCode(): string {
  const bytes = randomBytes(17); // 26 characters × 5 bits = 130 random bits out of these 136
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < INVITE_CODE_LENGTH) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out;
}

/**
 * A code as typed, in the stored form: capitals, without spaces or dashes, and the letters
 * Crockford base32 reads as digits (O → 0, I and L → 1).
 */
export function normalizeInviteCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}
