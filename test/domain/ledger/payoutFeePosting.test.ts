// The operator's fee of a payout: it moves what the merchant is owed to operator_revenue, the transaction moves the
// gross less the fee and any netting, and every life of such a payout leaves the merchant's payable at zero, the fee
// in the treasury as the operator's.
import { describe, expect, it } from 'vitest';
import { ACCOUNT, isBalanced, payoutConfirmed, payoutReleased, payoutReserved, payoutTransfer } from '../../../domain/ledger/ledger';
import { accountBalances } from '../../support/accountBalances';
import { groupMeaning } from '../../../domain/ledger/ledgerExplanation';
import { payoutFeeCharged } from '../../../domain/ledger/payoutFeePosting';
import { payoutNetted } from '../../../domain/ledger/payoutNettingPosting';

const payout = {
  paymentId: 'pay_01J0000000000000000000000A',
  mode: 'test' as const,
  merchantId: 'mer_01J0000000000000000000000B',
  amount: 10_000_000n,
  netted: 3_000_000n,
  fee: 250_000n,
};
const payable = ACCOUNT.merchantPayable(payout.merchantId);
const receivable = ACCOUNT.merchantReceivable(payout.merchantId);

describe('payout fee postings', () => {
  it("charges under the payment's own group: payable debit, operator_revenue credit, in Solana USDC", () => {
    const charged = payoutFeeCharged(payout)!;
    expect(charged).toEqual({
      groupId: `payout:${payout.paymentId}:fee`,
      mode: 'test',
      reference: `payout:${payout.paymentId}`,
      entries: [
        { account: payable, asset: 'usdc:solana', amount: 250_000n },
        { account: 'operator_revenue', asset: 'usdc:solana', amount: -250_000n },
      ],
    });
    expect(isBalanced(charged)).toBe(true);
    // Keyed on the payment: a later generation's fee is the same group, which the ledger posts once.
    expect(payoutFeeCharged({ ...payout, generation: 2 } as typeof payout)?.groupId).toBe(charged.groupId);
    expect(groupMeaning(charged.groupId)).toMatch(/operator_revenue/);
  });

  it('charges nothing without a fee, and refuses one the payout cannot hold', () => {
    expect(payoutFeeCharged({ ...payout, fee: 0n })).toBeUndefined();
    expect(payoutFeeCharged({ ...payout, fee: undefined })).toBeUndefined();
    expect(() => payoutFeeCharged({ ...payout, fee: -1n })).toThrow(RangeError);
    expect(() => payoutFeeCharged({ ...payout, fee: payout.amount - payout.netted + 1n })).toThrow(RangeError);
  });

  it('the transaction moves the gross less the fee and the netting', () => {
    expect(payoutTransfer(payout)).toBe(6_750_000n);
    for (const posting of [payoutReserved(payout), payoutConfirmed(payout), payoutReleased(payout)])
      expect(posting.entries.map((e) => (e.amount < 0n ? -e.amount : e.amount))).toEqual([6_750_000n, 6_750_000n]);
    // A fee and netting that take it all leave no transaction to reserve.
    expect(() => payoutReserved({ ...payout, fee: 7_000_000n })).toThrow(RangeError);
  });

  it('paid: the payable settled whole, the fee the operator’s and still in the treasury, which is out by the transfer alone', () => {
    expect(accountBalances([payoutFeeCharged(payout), payoutNetted(payout), payoutReserved(payout), payoutConfirmed(payout)])).toEqual({
      [payable]: 10_000_000n,
      [receivable]: -3_000_000n,
      operator_revenue: -250_000n,
      'treasury:solana': -6_750_000n,
    });
  });

  it('its transaction failed and was paid again: the fee stands, charged once', () => {
    const again = { ...payout, generation: 2 };
    const fee = payoutFeeCharged(payout);
    const lives = [fee, payoutNetted(payout), payoutReserved(payout), payoutReleased(payout)];
    expect(accountBalances(lives)).toEqual({ [payable]: 3_250_000n, [receivable]: -3_000_000n, operator_revenue: -250_000n });
    expect(accountBalances([...lives, payoutReserved(again), payoutConfirmed(again)])).toEqual({
      [payable]: 10_000_000n,
      [receivable]: -3_000_000n,
      operator_revenue: -250_000n,
      'treasury:solana': -6_750_000n,
    });
  });
});
