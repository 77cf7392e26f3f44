// Whether a refund may still be withdrawn, and by whom (docs/refunds.md#operator-commands-and-dashboard). The status
// machine allows a claimed refund to be cancelled; once the signer wrote its payment (refund_payouts) the money may
// already be on its way, so the payment is followed to its end instead. An automatic refund returns the customer's own
// money, never the merchant's, so only an operator withdraws it (its money then goes to operator_held). Pure.
import type { RefundSource } from './refundSource';
import { refundTransition, type RefundStatus } from './refundStatus';

export type RefundCancellation =
  | { cancel: true }
  | { cancel: false; alreadyCancelled: true }
  /** `paymentWritten` tells a refusal for the payment apart from one for the status, which callers word differently. */
  | { cancel: false; refusal: string; paymentWritten: boolean };

export type RefundWithdrawer = 'merchant' | 'operator';

export const AUTOMATIC_REFUND_NOT_MERCHANTS = "An automatic refund returns the customer's own money: only an operator can cancel it";

export function refundCancellation(
  refund: { status: RefundStatus; source: RefundSource },
  payoutWritten: boolean,
  by: RefundWithdrawer,
): RefundCancellation {
  if (refund.status === 'cancelled') return { cancel: false, alreadyCancelled: true };
  if (by === 'merchant' && refund.source !== 'merchant')
    return { cancel: false, refusal: AUTOMATIC_REFUND_NOT_MERCHANTS, paymentWritten: false };
  if (payoutWritten)
    return {
      cancel: false,
      refusal: 'the signer has written its payment, which is followed to its end (its failure releases it)',
      paymentWritten: true,
    };
  const move = refundTransition(refund.status, 'cancel');
  return move.ok ? { cancel: true } : { cancel: false, refusal: move.message, paymentWritten: false };
}
