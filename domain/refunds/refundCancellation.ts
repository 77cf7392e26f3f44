// Whether a refund may still be withdrawn (docs/refunds.md#operator-commands-and-dashboard). The status machine allows a
// claimed refund to be cancelled; once the signer wrote its payment (refund_payouts) the money may already be on its
// way, so the payment is followed to its end instead. Pure.
import { refundTransition, type RefundStatus } from './refundStatus';

export type RefundCancellation =
  | { cancel: true }
  | { cancel: false; alreadyCancelled: true }
  /** `paymentWritten` tells a refusal for the payment apart from one for the status, which callers word differently. */
  | { cancel: false; refusal: string; paymentWritten: boolean };

export function refundCancellation(status: RefundStatus, payoutWritten: boolean): RefundCancellation {
  if (status === 'cancelled') return { cancel: false, alreadyCancelled: true };
  if (payoutWritten)
    return {
      cancel: false,
      refusal: 'the signer has written its payment, which is followed to its end (its failure releases it)',
      paymentWritten: true,
    };
  const move = refundTransition(status, 'cancel');
  return move.ok ? { cancel: true } : { cancel: false, refusal: move.message, paymentWritten: false };
}
