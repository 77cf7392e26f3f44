// How much of a payout repays its merchant's receivable, and what the signer may transfer once it has.
import { describe, expect, it } from 'vitest';
import { judgeNettedTransfer, nettedFromPayout, nettedSettlementReference } from '../../../domain/settlement/payoutNetting';

describe('payout netting', () => {
  it('nets the smaller of the receivable and the gross; nothing of a receivable at or below zero', () => {
    expect(nettedFromPayout(3_000_000n, 10_000_000n)).toBe(3_000_000n);
    expect(nettedFromPayout(10_000_000n, 10_000_000n)).toBe(10_000_000n);
    expect(nettedFromPayout(25_000_000n, 10_000_000n)).toBe(10_000_000n);
    expect(nettedFromPayout(0n, 10_000_000n)).toBe(0n);
    expect(nettedFromPayout(-4n, 10_000_000n)).toBe(0n);
    expect(() => nettedFromPayout(1n, 0n)).toThrow(RangeError);
  });

  it('transfers the gross less the netting the ledger records, and nothing else', () => {
    const row = { paymentId: 'pay_1', amount: 10_000_000n, netted: 3_000_000n, posted: 3_000_000n };
    expect(judgeNettedTransfer(row)).toEqual({ kind: 'transfer', amount: 7_000_000n });
    expect(judgeNettedTransfer({ ...row, netted: 0n, posted: 0n })).toEqual({ kind: 'transfer', amount: 10_000_000n });
    // A netting the ledger does not hold: the row says less was owed than was taken, or more; never sign the gross.
    expect(judgeNettedTransfer({ ...row, posted: 0n })).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/ledger's netting of it is 0/),
    });
    expect(judgeNettedTransfer({ ...row, netted: 0n })).toMatchObject({ kind: 'refused' });
    // Netted whole, or beyond: nothing to transfer.
    expect(judgeNettedTransfer({ ...row, netted: 10_000_000n, posted: 10_000_000n })).toMatchObject({ kind: 'refused' });
    expect(judgeNettedTransfer({ ...row, netted: -1n, posted: -1n })).toMatchObject({ kind: 'refused' });
  });

  it("names a payout netted whole by its payment's netting", () => {
    expect(nettedSettlementReference('pay_1')).toBe('netted:pay_1');
  });

  it('nets out of what the fee leaves: the fee comes off the gross first', () => {
    expect(nettedFromPayout(3_000_000n, 10_000_000n, 250_000n)).toBe(3_000_000n);
    expect(nettedFromPayout(25_000_000n, 10_000_000n, 250_000n)).toBe(9_750_000n);
    expect(nettedFromPayout(25_000_000n, 10_000_000n, 10_000_000n)).toBe(0n);
    expect(() => nettedFromPayout(1n, 10n, 11n)).toThrow(RangeError);
  });

  it('transfers the gross less the fee and netting the ledger records, and never more than the gross', () => {
    const row = { paymentId: 'pay_1', amount: 10_000_000n, netted: 3_000_000n, posted: 3_000_000n, fee: 250_000n, postedFee: 250_000n };
    expect(judgeNettedTransfer(row)).toEqual({ kind: 'transfer', amount: 6_750_000n });
    // A fee the ledger does not hold: a row rewritten to charge less, or more, than was posted.
    expect(judgeNettedTransfer({ ...row, fee: 0n })).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/fee of 0.*250000/) });
    expect(judgeNettedTransfer({ ...row, postedFee: 0n })).toMatchObject({ kind: 'refused' });
    // Fee and netting taking it all: nothing to sign.
    expect(judgeNettedTransfer({ ...row, fee: 7_000_000n, postedFee: 7_000_000n })).toMatchObject({ kind: 'refused' });
    expect(judgeNettedTransfer({ ...row, fee: -1n, postedFee: -1n })).toMatchObject({ kind: 'refused' });
  });
});
