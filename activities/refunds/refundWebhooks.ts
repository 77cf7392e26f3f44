// A refund's webhook (docs/refunds.md#webhooks): a delivery of its session's, to the session's webhook_url, signed and
// sent by the webhook worker as any other (activities/webhooks/webhookActivities.ts). One per refund and event: the
// workflow announcing it again (a retry, a run continued as new) finds the first.
import { ApplicationFailure } from '@temporalio/activity';
import type { Sql } from '../../db/client';
import { refundAnnouncementFacts } from '../../db/repositories/refundAnnouncements';
import { findRefund } from '../../db/repositories/refunds';
import { insertRefundWebhookDelivery } from '../../db/repositories/webhookDeliveries';
import { refundWebhookContent, unmatchedDepositWebhookContent } from '../../domain/webhooks/refundWebhookPayload';
import { UNMATCHED_DEPOSIT_EVENT, webhookBody, type RefundWebhookEvent } from '../../domain/webhooks/webhookPayload';
import { newWebhookDeliveryId } from '../../domain/wire/ids';
import { REFUND_MISSING } from './refundProgress';

export type RefundAnnouncement = RefundWebhookEvent | typeof UNMATCHED_DEPOSIT_EVENT;

export function createRefundWebhooks(deps: { sql: Sql; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
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
      return insertRefundWebhookDelivery(deps.sql, {
        id,
        refundId,
        event,
        url: facts.webhookUrl,
        body: webhookBody(content, id, facts.mode),
      });
    },
  };
}
