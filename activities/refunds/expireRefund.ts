// A refund nobody claimed by its expires_at (docs/refunds.md#expiry): expired under its row's lock, and in the same
// transaction what the service owed for it handed to the operator (domain/ledger/refundExpiryPosting.ts). A refund
// claimed or cancelled meanwhile is left as it is: the answer is its status either way.
import type { Sql } from '../../db/client';
import { postLedger } from '../../db/repositories/ledger';
import { moveRefund } from '../../db/repositories/refunds';
import { refundExpired } from '../../domain/ledger/refundExpiryPosting';
import type { RefundStatus } from '../../domain/refunds/refundStatus';

export function createExpireRefund(deps: { sql: Sql }) {
  return async function expireRefund(refundId: string): Promise<RefundStatus> {
    return deps.sql.begin(async (tx) => {
      const moved = await moveRefund(tx, refundId, 'expire', { statusReason: 'not claimed before it expired' });
      if (!moved.ok) {
        if (!moved.refund) throw new Error(moved.message);
        return moved.refund.status;
      }
      const refund = moved.refund;
      // A merchant's refund posted nothing before its payment; an automatic one was owed from refund_due.
      if (refund.source !== 'merchant') {
        await postLedger(
          tx,
          refundExpired({ refundId, mode: refund.mode, token: refund.token, chain: refund.chain, amountBaseUnits: refund.amountBaseUnits }),
        );
      }
      return refund.status;
    });
  };
}
