// A refund is withdrawn only before the signer wrote its payment, and cancelling it twice is not an error.
import { describe, expect, it } from 'vitest';
import { refundCancellation } from '../../../domain/refunds/refundCancellation';

describe('cancelling a refund', () => {
  it('cancels one waiting for its claim, or claimed with no payment written', () => {
    expect(refundCancellation('pending_claim', false)).toEqual({ cancel: true });
    expect(refundCancellation('claimed', false)).toEqual({ cancel: true });
  });

  it('refuses once the signer wrote its payment, even while the row still says claimed', () => {
    expect(refundCancellation('claimed', true)).toEqual({
      cancel: false,
      refusal: expect.stringMatching(/^the signer has written its payment/),
      paymentWritten: true,
    });
  });

  it('refuses a refund that was paid, is being paid or ended otherwise', () => {
    expect(refundCancellation('submitted', false)).toEqual({
      cancel: false,
      refusal: 'A refund that is submitted cannot be cancelled',
      paymentWritten: false,
    });
    expect(refundCancellation('completed', true)).toEqual({
      cancel: false,
      refusal: expect.stringMatching(/signer has written/),
      paymentWritten: true,
    });
    expect(refundCancellation('expired', false)).toEqual({
      cancel: false,
      refusal: 'A refund that is expired cannot be cancelled',
      paymentWritten: false,
    });
    expect(refundCancellation('failed', false)).toEqual({
      cancel: false,
      refusal: 'A refund that is failed cannot be cancelled',
      paymentWritten: false,
    });
  });

  it('answers a refund already cancelled as done', () => {
    expect(refundCancellation('cancelled', false)).toEqual({ cancel: false, alreadyCancelled: true });
  });
});
