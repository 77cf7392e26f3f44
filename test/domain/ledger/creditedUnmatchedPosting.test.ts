// A deposit kept for a refund and credited afterwards ends posted as one credited on arrival.
import { describe, expect, it } from 'vitest';
import { depositCredited, refundOnlyDepositReceived, sumByAsset, isBalanced } from '../../../domain/ledger/ledger';
import { unmatchedDepositCredited } from '../../../domain/ledger/creditedUnmatchedPosting';

const deposit = { chain: 'polygon', token: 'USDC', txHash: '0xabc', logIndex: 2, mode: 'test' } as const;

describe('unmatchedDepositCredited', () => {
  it('moves the part paying the price from refund_due to merchant_pending, as a credit on arrival would have posted it', () => {
    const credit = unmatchedDepositCredited({ ...deposit, merchantUnits: 7_000_000n });
    expect(credit?.groupId).toBe('deposit:polygon:0xabc:2:credited');
    expect(credit?.reference).toBe('deposit:polygon:0xabc:2');
    expect(credit && isBalanced(credit)).toBe(true);
    const kept = refundOnlyDepositReceived({ ...deposit, amount: 10_000_000n });
    const onArrival = depositCredited({ ...deposit, amount: 10_000_000n, merchantUnits: 7_000_000n });
    const byAccount = (entries: { account: string; amount: bigint }[]) => {
      const sums = new Map<string, bigint>();
      for (const e of entries) sums.set(e.account, (sums.get(e.account) ?? 0n) + e.amount);
      return Object.fromEntries([...sums].filter(([, v]) => v !== 0n));
    };
    expect(byAccount([...kept.entries, ...(credit?.entries ?? [])])).toEqual(byAccount(onArrival.entries));
    expect(sumByAsset(credit?.entries ?? []).get('usdc:polygon')).toBe(0n);
  });

  it('posts nothing when no unit of it pays the price, and refuses a negative share', () => {
    expect(unmatchedDepositCredited({ ...deposit, merchantUnits: 0n })).toBeUndefined();
    expect(() => unmatchedDepositCredited({ ...deposit, merchantUnits: -1n })).toThrow(RangeError);
  });
});
