import { describe, expect, it } from 'vitest';
import { depositPostings, type CreditedDeposit } from '../../../domain/ledger/depositPostings';

const base = { txHash: '0xaa', logIndex: 0, merchantId: 'mer_1', mode: 'test' } as const;
const sum = (entries: { account: string; asset: string; amount: bigint }[], account: string, asset: string) =>
  entries.filter((e) => e.account === account && e.asset === asset).reduce((total, e) => total + e.amount, 0n);

describe('depositPostings', () => {
  it('posts a Solana USDC deposit to deposits:solana, as the treasury holds it', () => {
    const [posting] = depositPostings([{ ...base, chain: 'solana', token: 'USDC', amount: 7_000_000n }], 6);
    expect(posting).toMatchObject({ groupId: 'deposit:solana:0xaa:0' });
    expect(posting!.entries).toEqual([
      { account: 'deposits:solana', asset: 'usdc:solana', amount: 7_000_000n },
      { account: 'merchant_payable:mer_1', asset: 'usdc:solana', amount: -7_000_000n },
    ]);
  });

  it('posts a USDC deposit on base through cross_chain_clearing: the deposit in usdc:base, the payable in usdc:solana', () => {
    const [posting] = depositPostings([{ ...base, chain: 'base', token: 'USDC', amount: 25_500_000n }], 6);
    expect(posting).toMatchObject({ groupId: 'deposit:base:0xaa:0', mode: 'test' });
    expect(posting!.entries).toEqual([
      { account: 'deposits:base', asset: 'usdc:base', amount: 25_500_000n },
      { account: 'cross_chain_clearing', asset: 'usdc:base', amount: -25_500_000n },
      { account: 'cross_chain_clearing', asset: 'usdc:solana', amount: 25_500_000n },
      { account: 'merchant_payable:mer_1', asset: 'usdc:solana', amount: -25_500_000n },
    ]);
  });

  it('rescales 18-decimal deposits so their payables add up to the whole amount rescaled, as the payout pays it', () => {
    const deposits: CreditedDeposit[] = [
      { ...base, chain: 'bsc', token: 'USDT', txHash: '0x01', amount: 1_000_000_400_000_000_000n },
      { ...base, chain: 'bsc', token: 'USDT', txHash: '0x02', amount: 2_000_000_700_000_000_000n },
    ];
    const postings = depositPostings(deposits, 18);
    const entries = postings.flatMap((p) => p.entries);
    // Each alone truncates to 1.000000 and 2.000000; together they are 3.000001.
    expect(-sum(entries, 'merchant_payable:mer_1', 'usdc:solana')).toBe(3_000_001n);
    expect(sum(entries, 'deposits:bsc', 'usdt:bsc')).toBe(3_000_001_100_000_000_000n);
  });

  it('leaves out a deposit too small to owe a micro-unit: nothing of zero is posted', () => {
    const postings = depositPostings([{ ...base, chain: 'bsc', token: 'USDC', amount: 999_999_999_999n }], 18);
    expect(postings).toEqual([]);
  });
});
