// Forgot password (issue 3, SPEC §5/§7) through a real SMTP server on loopback: the code is
// read from the delivered mail, checked, used once to set a new password, and ends sessions.
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { desc, eq } from 'drizzle-orm';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, passwordResetCode } from '../src/db/schema';
import { callerOf, startTestApi, testEngines, type TestApi } from './kit';

interface Delivered {
  to: string[];
  raw: string;
}

/** A real SMTP server that keeps every message it accepts. */
async function startMailbox(): Promise<{ url: string; mails: Delivered[]; close(): Promise<void> }> {
  const mails: Delivered[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The 6-digit code of a delivered mail (the body is plain text, ASCII in English). */
function codeIn(mail: Delivered): string {
  const body = mail.raw.slice(mail.raw.indexOf('\r\n\r\n'));
  const m = /\b(\d{6})\b/.exec(body.replace(/=\r\n/g, ''));
  if (!m) throw new Error(`no code in mail: ${mail.raw}`);
  return m[1];
}

async function waitForMail(mails: Delivered[], count: number): Promise<Delivered> {
  for (let i = 0; i < 100 && mails.length < count; i++) await new Promise((r) => setTimeout(r, 50));
  expect(mails.length).toBe(count);
  return mails[count - 1];
}

/**
 * Holds a lock on one reset-code row, as a slow transaction would, so that guesses pile up
 * behind it: on PostgreSQL a row lock from a connection of its own (waiters are counted in
 * pg_locks); on PGlite, whose one session runs one transaction at a time, an open transaction.
 */
async function holdCodeRow(api: TestApi, codeId: number) {
  if (api.engine === 'postgres') {
    const holder = new pg.Client({ connectionString: api.databaseUrl });
    await holder.connect();
    await holder.query('begin');
    await holder.query('select id from password_reset_code where id = $1 for update', [codeId]);
    const waiting = async () =>
      (
        await holder.query<{ n: number }>(
          `select count(distinct pid)::int as n from pg_locks where not granted and pid <> pg_backend_pid()
           and (relation = 'password_reset_code'::regclass or transactionid = (
             select transactionid from pg_locks where pid = pg_backend_pid() and locktype = 'transactionid' limit 1))`,
        )
      ).rows[0].n;
    return {
      async untilWaiting(n: number) {
        for (let i = 0; i < 500 && (await waiting()) < n; i++) await sleep(20);
        expect(await waiting()).toBeGreaterThanOrEqual(n);
      },
      async release() {
        await holder.query('commit');
        await holder.end();
      },
    };
  }
  let release!: () => void;
  let started!: () => void;
  const isStarted = new Promise<void>((resolve) => (started = resolve));
  const held = api.db.transaction(async (tx) => {
    await tx.select({ id: passwordResetCode.id }).from(passwordResetCode).where(eq(passwordResetCode.id, codeId));
    started();
    await new Promise<void>((resolve) => (release = resolve));
  });
  await isStarted;
  return {
    // Every query waits for the open transaction, in arrival order; give the guesses time to arrive.
    async untilWaiting() {
      await sleep(500);
    },
    async release() {
      release();
      await held;
    },
  };
}

describe.each(testEngines())('forgot password over SMTP on %s', (engine) => {
  let api: TestApi;
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;

  beforeAll(async () => {
    mailbox = await startMailbox();
    api = await startTestApi(engine, { smtpUrl: mailbox.url });
  });
  afterAll(async () => {
    await api?.close();
    await mailbox?.close();
  });

  it('when a code is asked for, mailed, checked and used, then the new password works, the old one and old sessions do not', async () => {
    const oldSession = await api.login('staff', 'staff123');
    const sent = await api.http.post('/account/forget/password').send({ email: 'staff@example.com' });
    expect(sent.status).toBe(200);
    const mail = await waitForMail(mailbox.mails, 1);
    expect(mail.to).toEqual(['staff@example.com']);
    expect(mail.raw).toMatch(/^Subject: .+/m);
    const code = codeIn(mail);

    const wrong = await api.http
      .post('/account/check/forgetpwd/code')
      .send({ email: 'staff@example.com', code: code === '000000' ? '111111' : '000000' });
    expect(wrong.status).toBe(400);
    const checked = await api.http.post('/account/check/forgetpwd/code').send({ email: 'staff@example.com', code });
    expect(checked.status).toBe(200);

    const reset = await api.http
      .post('/account/forgetpwd/reset')
      .send({ email: 'staff@example.com', code, newPassword: 'Renewed789' });
    expect(reset.status).toBe(200);
    expect((await callerOf(api, oldSession).get('/auth/current/user')).status).toBe(401);
    await expect(api.login('staff', 'staff123')).rejects.toThrow(/401/);
    await api.login('staff', 'Renewed789');

    // The code is used up.
    const again = await api.http
      .post('/account/forgetpwd/reset')
      .send({ email: 'staff@example.com', code, newPassword: 'Another789' });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBeTruthy();
  });

  it('when the e-mail is unknown or asked again within a minute, then the answer is the same and no new mail goes out', async () => {
    const before = mailbox.mails.length;
    const unknown = await api.http.post('/account/forget/password').send({ email: 'nobody@example.com' });
    expect(unknown.status).toBe(200);
    const first = await api.http.post('/account/forget/password').send({ email: 'admin@example.com' });
    const second = await api.http.post('/account/forget/password').send({ email: 'admin@example.com' });
    expect([first.status, second.status]).toEqual([200, 200]);
    await waitForMail(mailbox.mails, before + 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailbox.mails.length).toBe(before + 1);
    expect(mailbox.mails[before].to).toEqual(['admin@example.com']);
  });

  it('when a code is guessed wrong five times, then even the right code no longer works', async () => {
    const before = mailbox.mails.length;
    const sent = await api.http.post('/account/forget/password').send({ email: 'resident1@example.com' });
    expect(sent.status).toBe(200);
    const mail = await waitForMail(mailbox.mails, before + 1);
    expect(mail.to).toEqual(['resident1@example.com']);
    const code = codeIn(mail);
    const guess = code === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) {
      expect(
        (await api.http.post('/account/check/forgetpwd/code').send({ email: 'resident1@example.com', code: guess }))
          .status,
      ).toBe(400);
    }
    const late = await api.http.post('/account/check/forgetpwd/code').send({ email: 'resident1@example.com', code });
    expect(late.status).toBe(400);
  });

  it('when 20 wrong guesses are in flight and the right code comes behind them, then the right code is refused: at most 5 guesses are ever compared', async () => {
    const email = 'resident2@example.com';
    const before = mailbox.mails.length;
    expect((await api.http.post('/account/forget/password').send({ email })).status).toBe(200);
    const code = codeIn(await waitForMail(mailbox.mails, before + 1));
    const wrong = code === '000000' ? '111111' : '000000';
    const [{ codeId }] = await api.db
      .select({ codeId: passwordResetCode.id })
      .from(passwordResetCode)
      .innerJoin(account, eq(account.id, passwordResetCode.accountId))
      .where(eq(account.email, email))
      .orderBy(desc(passwordResetCode.createdAt))
      .limit(1);

    const hold = await holdCodeRow(api, codeId);
    const guesses = Array.from({ length: 20 }, () =>
      api.http
        .post('/account/check/forgetpwd/code')
        .send({ email, code: wrong })
        .then((r) => r.status),
    );
    await hold.untilWaiting(5);
    const right = api.http
      .post('/account/check/forgetpwd/code')
      .send({ email, code })
      .then((r) => r.status);
    await sleep(200);
    await hold.release();

    expect(await Promise.all(guesses)).toEqual(Array<number>(20).fill(400));
    expect(await right).toBe(400);
    const [{ attempts }] = await api.db
      .select({ attempts: passwordResetCode.attempts })
      .from(passwordResetCode)
      .where(eq(passwordResetCode.id, codeId));
    expect(attempts).toBe(5);
    const reset = await api.http.post('/account/forgetpwd/reset').send({ email, code, newPassword: 'Guessed789' });
    expect(reset.status).toBe(400);
  });

  it('when the e-mail or code is malformed, then a clear 400, in Traditional Chinese when asked', async () => {
    const bad = await api.http.post('/account/forget/password').set('lang', 'zh-TW').send({ email: 'not-an-email' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/[\u4e00-\u9fff]/);
    const shortCode = await api.http
      .post('/account/check/forgetpwd/code')
      .send({ email: 'staff@example.com', code: '12' });
    expect(shortCode.status).toBe(400);
  });
});
