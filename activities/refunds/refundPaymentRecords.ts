// What the signer's payment of a refund did, recorded on the refund's row by its workflow: broadcast (submitted), then
// landed (completed) or not (failed). A refund cancelled before the signer wrote its payment is refused by the signer
// and stays cancelled: the answer is the status the row ends in. An automatic refund that failed hands its money to
// the operator as it fails (docs/refunds.md#when-a-refund-ends-unpaid): the signer released any reservation first.
import type { Sql } from '../../db/client';
import { handOverUnpaidRefund } from '../../db/repositories/refundHandover';
import { moveRefund } from '../../db/repositories/refunds';
import type { RefundPaymentOutcome } from '../../domain/refunds/refundPayment';
import type { RefundStatus } from '../../domain/refunds/refundStatus';

export type FinalPaymentOutcome = Extract<RefundPaymentOutcome, { status: 'confirmed' | 'failed' }>;

export function createRefundPaymentRecords(deps: { sql: Sql }) {
  const move = (refundId: string, event: 'submit' | 'complete' | 'fail', statusReason?: string) =>
    deps.sql.begin(async (tx) => {
      const moved = await moveRefund(tx, refundId, event, statusReason === undefined ? {} : { statusReason });
      if (!moved.refund) throw new Error(moved.ok ? `No refund ${refundId}` : moved.message);
      if (moved.ok && moved.refund.status === 'failed') await handOverUnpaidRefund(tx, moved.refund, 'failed');
      return moved.refund.status;
    });
  return {
    async recordRefundSubmitted(refundId: string): Promise<RefundStatus> {
      return move(refundId, 'submit');
    },
    async recordRefundOutcome(refundId: string, outcome: FinalPaymentOutcome): Promise<RefundStatus> {
      return outcome.status === 'confirmed' ? move(refundId, 'complete') : move(refundId, 'fail', outcome.reason);
    },
  };
}
