import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { VERIFICATION_CODE_TTL_MS } from '@pm/shared';
import type { Db } from '../../db/open-database';
import { queryRows } from '../../db/sql';
import { account, passwordResetCode } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { PublicContext } from '../../http/request-context';
import type { Mail } from '../../mail/mailer';
import { translate } from '../../http/translate';
import { hashPassword } from '../auth/password';

/** Wrong guesses a code survives; then it is used up (6 digits must not be brute-forced). */
export const MAX_ATTEMPTS = 5;
/** At most one new code a minute per account, so the endpoint cannot flood a mailbox. */
const RESEND_AFTER_MS = 60_000;
/**
 * "Send me a code" answers no sooner than this, known e-mail or not: with the mail sent off the
 * request path, the little work left for a known address disappears under it, so the answer
 * time does not tell whether an e-mail has an account.
 */
export const SEND_CODE_ANSWER_MS = 200;

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
 * Mails a fresh code. An unknown e-mail gets the same answer in the same time (no account
 * enumeration), and a second request within a minute sends nothing new.
 */
export async function sendResetCode(ctx: PublicContext, email: string): Promise<void> {
  const started = performance.now();
  let mail: Mail | null = null;
  try {
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
    mail = {
      to: email,
      subject: translate(lang, 'mail.resetSubject'),
      text: translate(lang, 'mail.resetText', { code, minutes: VERIFICATION_CODE_TTL_MS / 60_000 }),
    };
  } finally {
    const left = SEND_CODE_ANSWER_MS - (performance.now() - started);
    if (left > 0) await sleep(left);
  }
  // The mail leaves after the answer: its SMTP exchange does not delay this answer either.
  const later = mail;
  if (later) setImmediate(() => ctx.services.mailer.sendLater(later));
}

/**
 * Counts one guess at the account's newest live code and answers it, in ONE statement: the
 * count goes up only while it is under MAX_ATTEMPTS, so of any number of concurrent guesses at
 * most MAX_ATTEMPTS are ever compared (a row lock orders them on PostgreSQL). A right guess
 * gives its count back, so checking and then using the right code never uses the code up.
 */
async function matchCode(db: Db, email: string, code: string) {
  const [row] = await queryRows<{ id: number; account_id: number; code_hash: string }>(
    db,
    sql`update ${passwordResetCode} set attempts = attempts + 1
        where id = (
          select c.id from ${passwordResetCode} c join ${account} a on a.id = c.account_id
          where a.email = ${email} and a.enabled and c.used_at is null and c.expires_at > now()
          order by c.created_at desc limit 1)
        and attempts < ${MAX_ATTEMPTS}
        returning id, account_id, code_hash`,
  );
  if (!row || !sameHash(row.code_hash, hashCode(code))) throw AppError.badRequest('errors.codeInvalid');
  await db
    .update(passwordResetCode)
    .set({ attempts: sql`${passwordResetCode.attempts} - 1` })
    .where(eq(passwordResetCode.id, row.id));
  return { accountId: row.account_id, codeId: row.id };
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
