// An automatic refund that ended unpaid hands what was owed to the customer to the operator, in the deposit's token and
// chain, once per way of ending; reissuing it gives that money back to the customer under the new refund.
import { describe, expect, it } from 'vitest';
import { isBalanced } from '../../../domain/ledger/ledger';
import { refundHandedToOperator, refundReissued } from '../../../domain/ledger/refundHandover';

const money = { refundId: 'ref_1', mode: 'test' as const, token: 'USDT' as const, chain: 'bsc' as const, amountBaseUnits: 5n * 10n ** 18n };

describe('refundHandedToOperator', () => {
  it('moves the amount from refund_due to operator_held on the chain it arrived on, once per refund', () => {
    const posting = refundHandedToOperator(money, 'expired');
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

  it('names the group after how the refund ended', () => {
    expect(refundHandedToOperator(money, 'failed').groupId).toBe('refund:ref_1:failed');
    expect(refundHandedToOperator(money, 'cancelled').groupId).toBe('refund:ref_1:cancelled');
  });

  it('refuses an amount that is not positive', () => {
    expect(() => refundHandedToOperator({ ...money, token: 'USDC', chain: 'base', amountBaseUnits: 0n }, 'expired')).toThrow(RangeError);
  });
});

describe('refundReissued', () => {
  it('undoes a handover under the new refund: operator_held back to refund_due', () => {
    const handover = refundHandedToOperator(money, 'failed');
    const reissue = refundReissued({ ...money, refundId: 'ref_2' });
    expect(reissue).toMatchObject({ groupId: 'refund:ref_2:reissued', reference: 'refund:ref_2' });
    expect(isBalanced(reissue)).toBe(true);
    const byAccount = (a: { account: string }, b: { account: string }) => a.account.localeCompare(b.account);
    expect(reissue.entries.map((e) => ({ ...e, amount: -e.amount })).sort(byAccount)).toEqual([...handover.entries].sort(byAccount));
  });
});
