import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Db } from '../db/open-database';
import { mailOutbox } from '../db/schema';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /**
   * Sends in the background, off the request path (an answer must not take longer because a
   * mail went out); a failure is logged and recorded in the outbox.
   */
  sendLater(mail: Mail): void;
  /** Waits for the mails still being sent, then closes the SMTP connection. */
  close(): Promise<void>;
}

const FROM = 'Property Management System <no-reply@property.local>';

/**
 * Sends through SMTP when `smtpUrl` is set (smtp://user:pass@host:port); otherwise keeps the
 * mail in the mail_outbox table, so a demo without a mail server still works (read the code
 * there). Every mail is recorded in mail_outbox with its outcome. The log names the recipient
 * and subject only: a mail's text carries reset codes, which never reach a log.
 */
export function createMailer(db: Db, log: Logger, smtpUrl?: string): Mailer {
  const transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  const pending = new Set<Promise<void>>();
  const mailer: Mailer = {
    async send(mail) {
      if (!transport) {
        await db.insert(mailOutbox).values({ ...mail, status: 'stored' });
        log.info({ mailTo: mail.to, subject: mail.subject }, 'mail stored in the outbox (no SMTP_URL)');
        return;
      }
      try {
        await transport.sendMail({ from: FROM, ...mail });
        await db.insert(mailOutbox).values({ ...mail, status: 'sent', sentAt: new Date() });
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        await db.insert(mailOutbox).values({ ...mail, status: 'failed', error: reason });
        log.error({ mailTo: mail.to, reason }, 'mail could not be sent');
        throw err;
      }
    },
    sendLater(mail) {
      const sending = mailer
        .send(mail)
        .catch(() => undefined) // logged and recorded by send()
        .finally(() => pending.delete(sending));
      pending.add(sending);
    },
    async close() {
      await Promise.all(pending);
      transport?.close();
    },
  };
  return mailer;
}
