// A refund is withdrawn only before the signer wrote its payment, and cancelling it twice is not an error.
import { describe, expect, it } from 'vitest';
import { refundCancellation } from '../../../domain/refunds/refundCancellation';

describe('cancelling a refund', () => {
  it('cancels one waiting for its claim, or claimed with no payment written', () => {
    expect(refundCancellation({ status: 'pending_claim', source: 'merchant' }, false, 'merchant')).toEqual({ cancel: true });
    expect(refundCancellation({ status: 'claimed', source: 'merchant' }, false, 'merchant')).toEqual({ cancel: true });
  });

  it('refuses once the signer wrote its payment, even while the row still says claimed', () => {
    expect(refundCancellation({ status: 'claimed', source: 'merchant' }, true, 'merchant')).toEqual({
      cancel: false,
      refusal: expect.stringMatching(/^the signer has written its payment/),
      paymentWritten: true,
    });
  });

  it('refuses a refund that was paid, is being paid or ended otherwise', () => {
    expect(refundCancellation({ status: 'submitted', source: 'merchant' }, false, 'merchant')).toEqual({
      cancel: false,
      refusal: 'A refund that is submitted cannot be cancelled',
      paymentWritten: false,
    });
    expect(refundCancellation({ status: 'completed', source: 'merchant' }, true, 'merchant')).toEqual({
      cancel: false,
      refusal: expect.stringMatching(/signer has written/),
      paymentWritten: true,
    });
    expect(refundCancellation({ status: 'expired', source: 'merchant' }, false, 'merchant')).toEqual({
      cancel: false,
      refusal: 'A refund that is expired cannot be cancelled',
      paymentWritten: false,
    });
    expect(refundCancellation({ status: 'failed', source: 'merchant' }, false, 'merchant')).toEqual({
      cancel: false,
      refusal: 'A refund that is failed cannot be cancelled',
      paymentWritten: false,
    });
  });

  it('answers a refund already cancelled as done', () => {
    expect(refundCancellation({ status: 'cancelled', source: 'merchant' }, false, 'merchant')).toEqual({
      cancel: false,
      alreadyCancelled: true,
    });
  });

  it("leaves an automatic refund, the customer's own money, to an operator", () => {
    const late = { status: 'pending_claim' as const, source: 'late_deposit' as const };
    expect(refundCancellation(late, false, 'merchant')).toEqual({
      cancel: false,
      refusal: "An automatic refund returns the customer's own money: only an operator can cancel it",
      paymentWritten: false,
    });
    expect(refundCancellation(late, false, 'operator')).toEqual({ cancel: true });
    expect(refundCancellation({ ...late, status: 'claimed' }, true, 'operator')).toMatchObject({ cancel: false, paymentWritten: true });
  });
});
