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
  close(): void;
}

const FROM = 'Property Management System <no-reply@property.local>';

/**
 * Sends through SMTP when `smtpUrl` is set (smtp://user:pass@host:port); otherwise keeps the
 * mail in the mail_outbox table and logs it, so a demo without a mail server still works.
 * Every mail is recorded in mail_outbox with its outcome.
 */
export function createMailer(db: Db, log: Logger, smtpUrl?: string): Mailer {
  const transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  return {
    async send(mail) {
      if (!transport) {
        await db.insert(mailOutbox).values({ ...mail, status: 'stored' });
        log.info(
          { mailTo: mail.to, subject: mail.subject, text: mail.text },
          'mail stored in the outbox (no SMTP_URL)',
        );
        return;
      }
      try {
        await transport.sendMail({ from: FROM, ...mail });
        await db.insert(mailOutbox).values({ ...mail, status: 'sent', sentAt: new Date() });
      } catch (err) {
        await db.insert(mailOutbox).values({ ...mail, status: 'failed', error: String(err) });
        log.error({ err, mailTo: mail.to }, 'mail could not be sent');
        throw err;
      }
    },
    close() {
      transport?.close();
    },
  };
}
