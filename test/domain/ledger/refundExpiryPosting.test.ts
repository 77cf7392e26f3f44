// An unclaimed automatic refund hands what was owed to the customer to the operator, in the deposit's token and chain.
import { describe, expect, it } from 'vitest';
import { isBalanced } from '../../../domain/ledger/ledger';
import { refundExpired } from '../../../domain/ledger/refundExpiryPosting';

describe('refundExpired', () => {
  it('moves the amount from refund_due to operator_held on the chain it arrived on, once per refund', () => {
    const posting = refundExpired({ refundId: 'ref_1', mode: 'test', token: 'USDT', chain: 'bsc', amountBaseUnits: 5n * 10n ** 18n });
    expect(posting).toEqual({
      groupId: 'refund:ref_1:expired',
      mode: 'test',
      reference: 'refund:ref_1',
      entries: [
        { account: 'refund_due:bsc', asset: 'usdt:bsc', amount: 5n * 10n ** 18n },
        { account: 'operator_held:bsc', asset: 'usdt:bsc', amount: -(5n * 10n ** 18n) },
      ],
    });
    expect(isBalanced(posting)).toBe(true);
  });

  it('refuses an amount that is not positive', () => {
    expect(() => refundExpired({ refundId: 'ref_1', mode: 'test', token: 'USDC', chain: 'base', amountBaseUnits: 0n })).toThrow(RangeError);
  });
});
