import { describe, expect, it } from 'vitest';
import { isBalanced, sumByAsset, type LedgerPosting } from '../../../domain/ledger/ledger';
import {
  refundChainCosts,
  refundReleased,
  refundReserved,
  refundSent,
  type RefundPaymentAmounts,
} from '../../../domain/ledger/refundPostings';

const late: RefundPaymentAmounts = {
  refundId: 'ref_1',
  mode: 'test',
  merchantId: 'mer_1',
  source: 'late_deposit',
  token: 'USDC',
  chain: 'solana',
  amountBaseUnits: 5_000_000n,
  amountUsdMicros: 5_000_000n,
  paid: 4_990_000n,
  fee: 10_000n,
  merchantFee: 0n,
};
const entries = (p: LedgerPosting) => p.entries.map((e) => [e.account, e.asset, e.amount]);
/** What every posting of the refund leaves on each account and asset. */
function balances(postings: LedgerPosting[]) {
  const out = new Map<string, bigint>();
  for (const e of postings.flatMap((p) => p.entries))
    out.set(`${e.account} ${e.asset}`, (out.get(`${e.account} ${e.asset}`) ?? 0n) + e.amount);
  return Object.fromEntries([...out].filter(([, v]) => v !== 0n));
}

describe('refund postings', () => {
  it('an automatic refund of Solana USDC: reserved from refund_due, sent from the treasury, the fee the operator keeps', () => {
    const reserve = refundReserved(late);
    expect(reserve.groupId).toBe('refund:ref_1:reserve');
    expect(reserve.reference).toBe('refund:ref_1');
    expect(entries(reserve)).toEqual([
      ['refund_due:solana', 'usdc:solana', 5_000_000n],
      ['refunds_in_flight', 'usdc:solana', -5_000_000n],
    ]);
    const sent = refundSent(late);
    expect(sent.groupId).toBe('refund:ref_1:sent');
    expect(entries(sent)).toEqual([
      ['refunds_in_flight', 'usdc:solana', 5_000_000n],
      ['treasury:solana', 'usdc:solana', -4_990_000n],
      ['operator_held:solana', 'usdc:solana', -10_000n],
    ]);
    expect([reserve, sent].every(isBalanced)).toBe(true);
    expect(balances([reserve, sent])).toEqual({
      'refund_due:solana usdc:solana': 5_000_000n,
      'treasury:solana usdc:solana': -4_990_000n,
      'operator_held:solana usdc:solana': -10_000n,
    });
  });

  it('another token or chain: through cross_chain_clearing, each asset summing to zero', () => {
    const bsc = { ...late, token: 'USDT', chain: 'bsc', amountBaseUnits: 5_000_000_000_000_000_000n } as const;
    const reserve = refundReserved(bsc);
    expect(entries(reserve)).toEqual([
      ['refund_due:bsc', 'usdt:bsc', 5_000_000_000_000_000_000n],
      ['cross_chain_clearing', 'usdt:bsc', -5_000_000_000_000_000_000n],
      ['cross_chain_clearing', 'usdc:solana', 5_000_000n],
      ['refunds_in_flight', 'usdc:solana', -5_000_000n],
    ]);
    expect([...sumByAsset(reserve.entries).values()]).toEqual([0n, 0n]);
  });

  it("a merchant's refund under the merchant policy: the merchant owes the amount and the fee, the customer gets it all", () => {
    const merchant = { ...late, source: 'merchant', paid: 5_000_000n, merchantFee: 10_000n } as const;
    const reserve = refundReserved(merchant);
    expect(entries(reserve)).toEqual([
      ['merchant_receivable:mer_1', 'usdc:solana', 5_010_000n],
      ['refunds_in_flight', 'usdc:solana', -5_000_000n],
      ['operator_held:solana', 'usdc:solana', -10_000n],
    ]);
    expect(entries(refundSent(merchant))).toEqual([
      ['refunds_in_flight', 'usdc:solana', 5_000_000n],
      ['treasury:solana', 'usdc:solana', -5_000_000n],
    ]);
  });

  it('a transfer that landed and failed releases exactly what was reserved', () => {
    for (const refund of [late, { ...late, source: 'merchant', paid: 5_000_000n, merchantFee: 10_000n } as const]) {
      const release = refundReleased(refund);
      expect(release.groupId).toBe('refund:ref_1:release');
      expect(isBalanced(release)).toBe(true);
      expect(balances([refundReserved(refund), release])).toEqual({});
    }
  });

  it('SOL costs: the fee and the rent of the customer account, none when nothing was spent', () => {
    expect(entries(refundChainCosts(late, { feeLamports: 5000n, rentLamports: 2_039_280n })!)).toEqual([
      ['gas_expense:solana', 'sol:solana', 5000n],
      ['account_rent:solana', 'sol:solana', 2_039_280n],
      ['treasury:solana', 'sol:solana', -2_044_280n],
    ]);
    expect(refundChainCosts(late, { feeLamports: 0n, rentLamports: 0n })).toBeUndefined();
  });

  it('refuses amounts that do not add up', () => {
    expect(() => refundReserved({ ...late, paid: 5_000_000n })).toThrow(RangeError);
    expect(() => refundReserved({ ...late, amountBaseUnits: 4_000_000n })).toThrow(RangeError);
    expect(() => refundSent({ ...late, merchantFee: 1n })).toThrow(RangeError);
  });
});
