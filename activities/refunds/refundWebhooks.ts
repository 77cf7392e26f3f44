// A refund's webhook (docs/refunds.md#webhooks): a delivery of its session's, to the session's webhook_url, signed and
// sent by the webhook worker as any other (activities/webhooks/webhookActivities.ts). One per refund and event: the
// workflow announcing it again (a retry, a run continued as new) finds the first. The customer's reminder goes out
// with refund.expiring here too (docs/refunds.md#e-mail-to-the-customer), after the delivery is written.
import { ApplicationFailure, Context, log } from '@temporalio/activity';
import type { Sql } from '../../db/client';
import { refundAnnouncementFacts } from '../../db/repositories/refundAnnouncements';
import { findRefund } from '../../db/repositories/refunds';
import { insertRefundWebhookDelivery } from '../../db/repositories/webhookDeliveries';
import { giveUpRefundEmail, REFUND_EMAIL_FOR_EVENT } from '../../domain/refunds/refundEmail';
import { refundWebhookContent, unmatchedDepositWebhookContent } from '../../domain/webhooks/refundWebhookPayload';
import { UNMATCHED_DEPOSIT_EVENT, webhookBody, type RefundWebhookEvent } from '../../domain/webhooks/webhookPayload';
import { newWebhookDeliveryId } from '../../domain/wire/ids';
import type { Mailer } from '../email/smtpMailer';
import { emailRefundCustomer } from './refundEmails';
import { REFUND_MISSING } from './refundProgress';

export type RefundAnnouncement = RefundWebhookEvent | typeof UNMATCHED_DEPOSIT_EVENT;

export function createRefundWebhooks(deps: { sql: Sql; mailer?: Mailer; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());

  /** The webhook waits for its e-mail a few attempts at most, then goes out without it. No mailer (no SMTP_URL): none is sent. */
  async function emailCustomer(refundId: string, kind: 'reminder'): Promise<void> {
    const { mailer } = deps;
    if (!mailer) return;
    try {
      if (await emailRefundCustomer({ sql: deps.sql, mailer }, refundId, { kind })) log.info('refund e-mail sent', { refundId, kind });
    } catch (error) {
      const reason = (error as Error).message;
      if (!giveUpRefundEmail(Context.current().info.attempt)) {
        throw ApplicationFailure.retryable(`refund ${refundId}: its ${kind} e-mail was not sent: ${reason}`, 'RefundEmailNotSent');
      }
      log.warn('refund e-mail given up', { refundId, kind, reason });
    }
  }

  return {
    /** Writes the delivery of `event` for the refund (or finds the one written before) and returns its id. */
    async createRefundWebhookDelivery(refundId: string, event: RefundAnnouncement): Promise<string> {
      const [refund, facts] = await Promise.all([findRefund(deps.sql, refundId), refundAnnouncementFacts(deps.sql, refundId)]);
      if (!refund || !facts) throw ApplicationFailure.nonRetryable(`No refund ${refundId}`, REFUND_MISSING);
      const timestamp = now().toISOString();
      const { deposit } = refund;
      if (event === UNMATCHED_DEPOSIT_EVENT && !deposit) {
        throw ApplicationFailure.nonRetryable(`refund ${refundId} returns no deposit`, 'RefundHasNoDeposit');
      }
      const content =
        event === UNMATCHED_DEPOSIT_EVENT
          ? unmatchedDepositWebhookContent(facts.session, { ...refund, deposit: deposit! }, timestamp)
          : refundWebhookContent(event, facts.session, refund, facts.payment, timestamp);
      const id = newWebhookDeliveryId();
      const deliveryId = await insertRefundWebhookDelivery(deps.sql, {
        id,
        refundId,
        event,
        url: facts.webhookUrl,
        body: webhookBody(content, id, facts.mode),
      });
      const kind = REFUND_EMAIL_FOR_EVENT[event];
      if (kind) await emailCustomer(refundId, kind);
      return deliveryId;
    },
  };
}
