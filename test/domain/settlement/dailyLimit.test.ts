// A live payout that would bring the merchant's live payouts of the trailing 24 hours above the daily limit waits for
// an operator's approval; at or below the limit, approved, in test mode or without a limit, it is paid.
import { describe, expect, it } from 'vitest';
import { judgeDailyLimit, type LimitedPayout } from '../../../domain/settlement/dailyLimit';

const payout: LimitedPayout = { paymentId: 'pay_1', merchantId: 'mer_1', mode: 'live', amount: 3_000_000n };

describe('the daily limit of live payouts', () => {
  it('pays up to the limit, counting what the merchant was paid in the window', () => {
    expect(judgeDailyLimit(payout, { paidInWindow: 7_000_000n, limit: 10_000_000n })).toEqual({ kind: 'within' });
    expect(judgeDailyLimit(payout, { paidInWindow: 0n, limit: 3_000_000n })).toEqual({ kind: 'within' });
  });

  it('holds a payout that would go past it until an operator approves that payment', () => {
    expect(judgeDailyLimit(payout, { paidInWindow: 7_000_001n, limit: 10_000_000n })).toEqual({
      kind: 'awaiting_approval',
      reason:
        "payment pay_1: merchant mer_1's live payouts of the last 24 hours come to 7000001 USDC base units, and this payout of 3000000 would bring them to 10000001, above the daily limit of 10000000; it waits for an operator (checkout-admin settlement approve --payment pay_1)",
    });
    expect(judgeDailyLimit(payout, { paidInWindow: 7_000_001n, limit: 10_000_000n, approval: { operator: 'alice' } })).toEqual({
      kind: 'approved',
      operator: 'alice',
    });
  });

  it('holds a single payout larger than the limit, and with a limit of 0 every live payout', () => {
    expect(judgeDailyLimit({ ...payout, amount: 10_000_001n }, { paidInWindow: 0n, limit: 10_000_000n }).kind).toBe('awaiting_approval');
    expect(judgeDailyLimit({ ...payout, amount: 1n }, { paidInWindow: 0n, limit: 0n }).kind).toBe('awaiting_approval');
  });

  it('never holds a test payout, nor any payout without a limit', () => {
    expect(judgeDailyLimit({ ...payout, mode: 'test' }, { paidInWindow: 50_000_000n, limit: 0n })).toEqual({ kind: 'within' });
    expect(judgeDailyLimit(payout, { paidInWindow: 50_000_000n, limit: undefined })).toEqual({ kind: 'within' });
  });
});
