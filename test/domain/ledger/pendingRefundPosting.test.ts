// A credited deposit no settlement will pay: what it left pending for the merchant becomes owed back to the customer.
import { describe, expect, it } from 'vitest';
import { depositCredited, isBalanced, sumByAsset, type LedgerEntry } from '../../../domain/ledger/ledger';
import { pendingDepositRefunded } from '../../../domain/ledger/pendingRefundPosting';

const deposit = { chain: 'base', token: 'USDC', txHash: '0xabc', logIndex: 3, mode: 'test' } as const;

const balanceOf = (entries: readonly LedgerEntry[], account: string) =>
  entries.filter((e) => e.account === account).reduce((sum, e) => sum + e.amount, 0n);

describe('pendingDepositRefunded', () => {
  it('moves the pending units from merchant_pending to refund_due on the deposit’s chain, one group per deposit', () => {
    const posting = pendingDepositRefunded({ ...deposit, pending: 4_000_000n });
    expect(posting).toEqual({
      groupId: 'deposit:base:0xabc:3:refunded',
      mode: 'test',
      reference: 'deposit:base:0xabc:3',
      entries: [
        { account: 'merchant_pending:base', asset: 'usdc:base', amount: 4_000_000n },
        { account: 'refund_due:base', asset: 'usdc:base', amount: -4_000_000n },
      ],
    });
    expect(isBalanced(posting)).toBe(true);
  });

  it('after the credit leaves nothing pending for the merchant and all of the deposit owed back', () => {
    const credit = depositCredited({ ...deposit, amount: 4_000_000n, merchantUnits: 4_000_000n });
    const entries = [...credit.entries, ...pendingDepositRefunded({ ...deposit, pending: 4_000_000n }).entries];
    expect(balanceOf(entries, 'merchant_pending:base')).toBe(0n);
    expect(balanceOf(entries, 'refund_due:base')).toBe(-4_000_000n);
    expect(sumByAsset(entries).get('usdc:base')).toBe(0n);
  });

  it('refuses pending units that are not positive', () => {
    expect(() => pendingDepositRefunded({ ...deposit, pending: 0n })).toThrow(RangeError);
  });
});
