// Plain-text e-mail over SMTP (SMTP_URL, EMAIL_FROM: docs/configuration.md), through nodemailer, from the API (a
// refund's claim link) and the worker (its reminder). One send has a deadline: well inside the worker's activity's 10 s
// (workflows/sessionActivities.ts RECORDS_OPTIONS), where an attempt that outlived it would run on beside its retry, and
// short enough that a silent server holds a refund's create answer, or its webhook, for seconds at most.
import { createTransport } from 'nodemailer';
import type { RefundEmailMessage } from '../../domain/refunds/refundEmail';

export interface Mailer {
  send(message: RefundEmailMessage): Promise<void>;
}

export const SMTP_SEND_DEADLINE_MS = 6_000;

export function smtpMailer(config: { smtpUrl: string; from: string; deadlineMs?: number }): Mailer {
  const deadlineMs = config.deadlineMs ?? SMTP_SEND_DEADLINE_MS;
  const transport = createTransport({
    url: config.smtpUrl,
    connectionTimeout: deadlineMs,
    greetingTimeout: deadlineMs,
    socketTimeout: deadlineMs,
  });
  return {
    async send(message) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error('timed out'), { code: 'DEADLINE' })), deadlineMs);
      });
      try {
        await Promise.race([
          transport.sendMail({ from: config.from, to: message.to, subject: message.subject, text: message.text }),
          deadline,
        ]);
      } catch (error) {
        // The server's answer may quote the recipient: only its codes travel on, into logs and workflow histories.
        const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
        throw new Error(`SMTP delivery failed (${[code, responseCode].filter((part) => part !== undefined).join(' ') || 'no code'})`);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
