// POST /checkout/refunds/{refund_id}/cancel: the merchant withdraws a refund before its payment began (pending_claim or
// claimed). The row moves first, then the workflow is told; a retry after a failed signal finds the refund cancelled
// and signals again.
import { findMerchantRefund } from '../../../db/repositories/merchantRefunds';
import { moveRefund } from '../../../db/repositories/refunds';
import type { CancelRefundRequest, RefundObject } from '../../../domain/wire/refund';
import { presentRefund } from '../../refundJson';
import type { AppDeps, MerchantAuth } from '../../context';
import { ConflictError, refundNotFound } from '../../errors';
import { signalRefundCancelled } from './refundWorkflow';

export async function cancelRefund(deps: AppDeps, auth: MerchantAuth, refundId: string, body: CancelRefundRequest): Promise<RefundObject> {
  if (!(await findMerchantRefund(deps.sql, auth, refundId))) throw refundNotFound();
  const statusReason = `cancelled by merchant${body?.reason ? `: ${body.reason}` : ''}`;
  const moved = await deps.sql.begin(async (tx) => {
    // Once the signer wrote the payment, the money may already be on its way: only the payment's outcome ends it.
    const [payout] = await tx`select 1 from refund_payouts where refund_id = ${refundId}`;
    if (payout) return { ok: false as const, message: 'The refund cannot be cancelled: its payment is already under way' };
    return moveRefund(tx, refundId, 'cancel', { statusReason });
  });
  if (!moved.ok) throw new ConflictError(moved.message);
  await signalRefundCancelled(deps, refundId);
  const cancelled = await findMerchantRefund(deps.sql, auth, refundId);
  if (!cancelled) throw refundNotFound();
  return presentRefund(cancelled, deps.config);
}
