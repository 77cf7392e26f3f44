// POST /checkout/refunds/{refund_id}/cancel: the merchant withdraws its own refund before its payment began
// (pending_claim or claimed); an automatic refund is the customer's money, withdrawn only by an operator. The row moves first, then the workflow is told; a retry after a failed signal finds the refund cancelled
// and signals again.
import { findMerchantRefund } from '../../../db/repositories/refundListing';
import { cancelRefund as cancelRefundRow } from '../../../db/repositories/refunds';
import type { CancelRefundRequest, RefundObject } from '../../../domain/wire/refund';
import { presentRefund } from '../../refundJson';
import type { AppDeps, MerchantAuth } from '../../context';
import { ConflictError, refundNotFound } from '../../errors';
import { signalRefundCancelled } from './refundWorkflow';

export async function cancelRefund(deps: AppDeps, auth: MerchantAuth, refundId: string, body: CancelRefundRequest): Promise<RefundObject> {
  if (!(await findMerchantRefund(deps.sql, auth, refundId))) throw refundNotFound();
  const statusReason = `cancelled by merchant${body?.reason ? `: ${body.reason}` : ''}`;
  const outcome = await deps.sql.begin((tx) => cancelRefundRow(tx, refundId, statusReason, 'merchant'));
  if (!outcome.ok) {
    if (outcome.notFound) throw refundNotFound();
    // The merchant is told what it can act on, not which service wrote the payment.
    throw new ConflictError(outcome.paymentWritten ? 'The refund cannot be cancelled: its payment is already under way' : outcome.refusal);
  }
  await signalRefundCancelled(deps, refundId);
  const cancelled = await findMerchantRefund(deps.sql, auth, refundId);
  if (!cancelled) throw refundNotFound();
  return presentRefund(cancelled, deps.config);
}
