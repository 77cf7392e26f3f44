// A refund nobody claimed by its expires_at (docs/refunds.md#expiry): expired under its row's lock, and in the same
// transaction what the service owed for it handed to the operator (domain/ledger/refundHandover.ts). A refund
// claimed or cancelled meanwhile is left as it is: the answer is its status either way.
import type { Sql } from '../../db/client';
import { handOverUnpaidRefund } from '../../db/repositories/refundHandover';
import { moveRefund } from '../../db/repositories/refunds';
import type { RefundStatus } from '../../domain/refunds/refundStatus';

export function createExpireRefund(deps: { sql: Sql }) {
  return async function expireRefund(refundId: string): Promise<RefundStatus> {
    return deps.sql.begin(async (tx) => {
      const moved = await moveRefund(tx, refundId, 'expire', { statusReason: 'not claimed before it expired' });
      if (!moved.ok) {
        if (!moved.refund) throw new Error(moved.message);
        return moved.refund.status;
      }
      await handOverUnpaidRefund(tx, moved.refund, 'expired');
      return moved.refund.status;
    });
  };
}
