// A payout that nets its merchant's receivable: the netting moves what the merchant is owed onto what it owes, the
// reservation, the sending and a failed transaction's release move only the transfer, and every life of such a payout
// leaves the merchant's payable at zero, its receivable less by the netting, nothing in flight.
import { describe, expect, it } from 'vitest';
import { ACCOUNT, isBalanced, payoutConfirmed, payoutReleased, payoutReserved, payoutTransfer } from '../../../domain/ledger/ledger';
import { accountBalances } from '../../support/accountBalances';
import { payoutNetted } from '../../../domain/ledger/payoutNettingPosting';

const payout = {
  paymentId: 'pay_01J0000000000000000000000A',
  mode: 'test' as const,
  merchantId: 'mer_01J0000000000000000000000B',
  amount: 10_000_000n,
  netted: 3_000_000n,
};
const payable = ACCOUNT.merchantPayable(payout.merchantId);
const receivable = ACCOUNT.merchantReceivable(payout.merchantId);

describe('payout netting postings', () => {
  it("nets under the payment's own group: payable debit, receivable credit, in Solana USDC", () => {
    const netting = payoutNetted(payout)!;
    expect(netting).toEqual({
      groupId: `payout:${payout.paymentId}:netted`,
      mode: 'test',
      reference: `payout:${payout.paymentId}`,
      entries: [
        { account: payable, asset: 'usdc:solana', amount: 3_000_000n },
        { account: receivable, asset: 'usdc:solana', amount: -3_000_000n },
      ],
    });
    expect(isBalanced(netting)).toBe(true);
    // Keyed on the payment: a later generation's netting is the same group, which the ledger posts once.
    expect(payoutNetted({ ...payout, generation: 2 } as typeof payout)?.groupId).toBe(netting.groupId);
  });

  it('nets nothing without a netting, and refuses one outside the payout', () => {
    expect(payoutNetted({ ...payout, netted: 0n })).toBeUndefined();
    expect(payoutNetted({ ...payout, netted: undefined })).toBeUndefined();
    expect(() => payoutNetted({ ...payout, netted: -1n })).toThrow(RangeError);
    expect(() => payoutNetted({ ...payout, netted: payout.amount + 1n })).toThrow(RangeError);
  });

  it('the transaction moves the gross less the netting: reserved, sent and released by that much', () => {
    expect(payoutTransfer(payout)).toBe(7_000_000n);
    expect(payoutTransfer({ amount: 5n })).toBe(5n);
    for (const posting of [payoutReserved(payout), payoutConfirmed(payout), payoutReleased(payout)]) {
      expect(isBalanced(posting)).toBe(true);
      expect(posting.entries.map((e) => (e.amount < 0n ? -e.amount : e.amount))).toEqual([7_000_000n, 7_000_000n]);
    }
    // Netted whole, there is no transaction to reserve.
    expect(() => payoutReserved({ ...payout, netted: payout.amount })).toThrow(RangeError);
  });

  it('paid: the payable its deposits credited is settled whole, the receivable less by the netting, the treasury out by the transfer', () => {
    expect(accountBalances([payoutNetted(payout), payoutReserved(payout), payoutConfirmed(payout)])).toEqual({
      [payable]: 10_000_000n,
      [receivable]: -3_000_000n,
      'treasury:solana': -7_000_000n,
    });
  });

  it('its transaction failed: the netting stands, the merchant is owed the transfer again, nothing in flight', () => {
    const after = accountBalances([payoutNetted(payout), payoutReserved(payout), payoutReleased(payout)]);
    expect(after).toEqual({ [payable]: 3_000_000n, [receivable]: -3_000_000n });
    // Paid again under generation 2: the same netting (posted once), the transfer reserved and sent.
    const again = { ...payout, generation: 2 };
    expect(
      accountBalances([
        payoutNetted(payout),
        payoutReserved(payout),
        payoutReleased(payout),
        payoutReserved(again),
        payoutConfirmed(again),
      ]),
    ).toEqual({
      [payable]: 10_000_000n,
      [receivable]: -3_000_000n,
      'treasury:solana': -7_000_000n,
    });
  });
});
