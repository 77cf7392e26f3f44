// Whether a refund can be reissued (docs/refunds.md#when-a-refund-ends-unpaid): only an automatic one that ended
// unpaid, whose money the operator holds since. A merchant's refund posted nothing when it ended; the merchant makes
// another through the API. Pure.
import type { UnpaidRefundEnding } from '../ledger/refundHandover';
import { UNMATCHED_DEPOSIT_SOURCES } from './automaticRefund';
import type { RefundSource } from './refundSource';
import type { RefundStatus } from './refundStatus';

export type RefundReissueVerdict = { ok: true; ending: UnpaidRefundEnding } | { ok: false; refusal: string };

const UNPAID_ENDINGS: ReadonlySet<RefundStatus> = new Set<UnpaidRefundEnding>(['expired', 'failed', 'cancelled']);

/** `depositCredited`: the refund's deposit counts toward its session now (its merchant is paid for it). */
export function judgeRefundReissue(
  refund: { id: string; source: RefundSource; status: RefundStatus },
  depositCredited: boolean,
): RefundReissueVerdict {
  if (refund.source === 'merchant')
    return { ok: false, refusal: `refund ${refund.id} is a merchant's: the merchant creates another through the API instead` };
  if (!UNPAID_ENDINGS.has(refund.status))
    return {
      ok: false,
      refusal: `refund ${refund.id} is ${refund.status.replace('_', ' ')}: only one that ended unpaid (failed, expired or cancelled) is reissued`,
    };
  // A deposit kept for a refund and then credited to its session moved its money to the merchant; nothing was handed over.
  if (depositCredited && UNMATCHED_DEPOSIT_SOURCES.has(refund.source))
    return { ok: false, refusal: `refund ${refund.id}: its deposit was credited to the session since, so its money is the merchant's` };
  return { ok: true, ending: refund.status as UnpaidRefundEnding };
}
