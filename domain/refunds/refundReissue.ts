// Whether a refund can be reissued (docs/refunds.md#when-a-refund-ends-unpaid): only an automatic one that ended
// unpaid, whose money the operator holds since. A merchant's refund posted nothing when it ended; the merchant makes
// another through the API. Pure.
import type { UnpaidRefundEnding } from '../ledger/refundHandover';
import type { RefundSource } from './refundSource';
import type { RefundStatus } from './refundStatus';

export type RefundReissueVerdict = { ok: true; ending: UnpaidRefundEnding } | { ok: false; refusal: string };

const UNPAID_ENDINGS: ReadonlySet<RefundStatus> = new Set<UnpaidRefundEnding>(['expired', 'failed', 'cancelled']);

export function judgeRefundReissue(refund: { id: string; source: RefundSource; status: RefundStatus }): RefundReissueVerdict {
  if (refund.source === 'merchant')
    return { ok: false, refusal: `refund ${refund.id} is a merchant's: the merchant creates another through the API instead` };
  if (!UNPAID_ENDINGS.has(refund.status))
    return {
      ok: false,
      refusal: `refund ${refund.id} is ${refund.status.replace('_', ' ')}: only one that ended unpaid (failed, expired or cancelled) is reissued`,
    };
  return { ok: true, ending: refund.status as UnpaidRefundEnding };
}
