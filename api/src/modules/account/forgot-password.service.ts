import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { VERIFICATION_CODE_TTL_MS } from '@pm/shared';
import type { Db } from '../../db/open-database';
import { account, passwordResetCode } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { PublicContext } from '../../http/request-context';
import { translate } from '../../http/translate';
import { hashPassword } from '../auth/password';

/** Wrong guesses a code survives; then it is used up (6 digits must not be brute-forced). */
const MAX_ATTEMPTS = 5;
/** At most one new code a minute per account, so the endpoint cannot flood a mailbox. */
const RESEND_AFTER_MS = 60_000;

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

async function accountByEmail(db: Db, email: string) {
  const [row] = await db
    .select({ id: account.id, language: account.language })
    .from(account)
    .where(and(eq(account.email, email), eq(account.enabled, true)))
    .limit(1);
  return row ?? null;
}

/**
 * Mails a fresh code. An unknown e-mail gets the same answer (no account enumeration), and
 * a second request within a minute sends nothing new.
 */
export async function sendResetCode(ctx: PublicContext, email: string): Promise<void> {
  const acc = await accountByEmail(ctx.db, email);
  if (!acc) return;
  const [latest] = await ctx.db
    .select({ createdAt: passwordResetCode.createdAt })
    .from(passwordResetCode)
    .where(eq(passwordResetCode.accountId, acc.id))
    .orderBy(desc(passwordResetCode.createdAt))
    .limit(1);
  if (latest && Date.now() - latest.createdAt.getTime() < RESEND_AFTER_MS) return;
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await ctx.db.insert(passwordResetCode).values({
    accountId: acc.id,
    codeHash: hashCode(code),
    expiresAt: new Date(Date.now() + VERIFICATION_CODE_TTL_MS),
  });
  const lang = ctx.lang;
  await ctx.services.mailer.send({
    to: email,
    subject: translate(lang, 'mail.resetSubject'),
    text: translate(lang, 'mail.resetText', { code, minutes: VERIFICATION_CODE_TTL_MS / 60_000 }),
  });
}

/** The account's newest unused, unexpired code when `code` matches it; a miss counts an attempt. */
async function matchCode(db: Db, email: string, code: string) {
  const acc = await accountByEmail(db, email);
  if (!acc) throw AppError.badRequest('errors.codeInvalid');
  const [row] = await db
    .select()
    .from(passwordResetCode)
    .where(
      and(
        eq(passwordResetCode.accountId, acc.id),
        isNull(passwordResetCode.usedAt),
        gt(passwordResetCode.expiresAt, new Date()),
      ),
    )
    .orderBy(desc(passwordResetCode.createdAt))
    .limit(1);
  if (!row || row.attempts >= MAX_ATTEMPTS) throw AppError.badRequest('errors.codeInvalid');
  if (!sameHash(row.codeHash, hashCode(code))) {
    await db
      .update(passwordResetCode)
      .set({ attempts: sql`${passwordResetCode.attempts} + 1` })
      .where(eq(passwordResetCode.id, row.id));
    throw AppError.badRequest('errors.codeInvalid');
  }
  return { accountId: acc.id, codeId: row.id };
}

export async function checkResetCode(db: Db, email: string, code: string): Promise<void> {
  await matchCode(db, email, code);
}

/** New password with a valid code: the code is used up and every session of the account ends. */
export async function resetWithCode(
  ctx: PublicContext,
  email: string,
  code: string,
  newPassword: string,
): Promise<void> {
  const { accountId, codeId } = await matchCode(ctx.db, email, code);
  const passwordHash = await hashPassword(newPassword);
  const used = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .update(passwordResetCode)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResetCode.id, codeId), isNull(passwordResetCode.usedAt)))
      .returning({ id: passwordResetCode.id });
    if (rows.length === 0) return false;
    await tx.update(account).set({ passwordHash, updatedAt: new Date() }).where(eq(account.id, accountId));
    return true;
  });
  if (!used) throw AppError.badRequest('errors.codeInvalid');
  await ctx.services.tokens.revokeAccount(accountId, null);
}
