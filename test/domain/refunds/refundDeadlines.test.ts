// An unclaimed refund reminds three days before its window closes, when the window was longer, then expires.
import { describe, expect, it } from 'vitest';
import { nextRefundWake, REFUND_REMINDER_BEFORE_MS } from '../../../domain/refunds/refundDeadlines';

const DAY = 24 * 60 * 60 * 1000;

describe('nextRefundWake', () => {
  it('reminds three days before a thirty-day window closes, then expires it at its end', () => {
    const refund = { createdAtMs: 0, expiresAtMs: 30 * DAY };
    expect(nextRefundWake(refund, false)).toEqual({ kind: 'remind', atMs: 27 * DAY });
    expect(nextRefundWake(refund, true)).toEqual({ kind: 'expire', atMs: 30 * DAY });
  });

  it('has no reminder for a window of three days or less', () => {
    expect(nextRefundWake({ createdAtMs: 0, expiresAtMs: REFUND_REMINDER_BEFORE_MS }, false)).toEqual({
      kind: 'expire',
      atMs: REFUND_REMINDER_BEFORE_MS,
    });
    expect(nextRefundWake({ createdAtMs: 0, expiresAtMs: DAY }, false).kind).toBe('expire');
  });
});
