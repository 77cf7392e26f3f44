// Plain-text e-mail over SMTP (SMTP_URL, EMAIL_FROM: docs/configuration.md), through nodemailer. Short timeouts: a
// refund's e-mail is sent inside a database transaction that holds its lock (activities/refunds/refundEmails.ts).
import { createTransport } from 'nodemailer';
import type { RefundEmailMessage } from '../../domain/refunds/refundEmail';

export interface Mailer {
  send(message: RefundEmailMessage): Promise<void>;
}

export function smtpMailer(config: { smtpUrl: string; from: string }): Mailer {
  const transport = createTransport({ url: config.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
  return {
    async send(message) {
      try {
        await transport.sendMail({ from: config.from, to: message.to, subject: message.subject, text: message.text });
      } catch (error) {
        // The server's answer may quote the recipient: only its codes travel on, into logs and workflow histories.
        const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
        throw new Error(`SMTP delivery failed (${[code, responseCode].filter((part) => part !== undefined).join(' ') || 'no code'})`);
      }
    },
  };
}
