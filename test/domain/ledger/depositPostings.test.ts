import { describe, expect, it } from 'vitest';
import { depositPostings, type CreditedDeposit } from '../../../domain/ledger/depositPostings';
import { isBalanced } from '../../../domain/ledger/ledger';
import type { QuotedPrice } from '../../../domain/settlement/unitOwnership';

const base = { txHash: '0xaa', logIndex: 0, merchantId: 'mer_1', mode: 'test' } as const;
const sum = (entries: { account: string; asset: string; amount: bigint }[], account: string, asset: string) =>
  entries.filter((e) => e.account === account && e.asset === asset).reduce((total, e) => total + e.amount, 0n);
/** A session of `cents` asking for `expected` base units at `decimals`: the price the payment was quoted at. */
const price = (cents: bigint, expected: bigint, decimals = 6): QuotedPrice => ({
  amountUsdCents: cents,
  expectedBaseUnits: expected,
  decimals,
});

describe('depositPostings', () => {
  it('posts a Solana USDC deposit to deposits:solana, as the treasury holds it', () => {
    const [posting] = depositPostings([{ ...base, chain: 'solana', token: 'USDC', amount: 7_000_000n }], price(700n, 7_000_000n));
    expect(posting).toMatchObject({ groupId: 'deposit:solana:0xaa:0' });
    expect(posting!.entries).toEqual([
      { account: 'deposits:solana', asset: 'usdc:solana', amount: 7_000_000n },
      { account: 'merchant_payable:mer_1', asset: 'usdc:solana', amount: -7_000_000n },
    ]);
  });

  it('posts a USDC deposit on base through cross_chain_clearing: the deposit in usdc:base, the payable in usdc:solana', () => {
    const [posting] = depositPostings([{ ...base, chain: 'base', token: 'USDC', amount: 25_500_000n }], price(2550n, 25_500_000n));
    expect(posting).toMatchObject({ groupId: 'deposit:base:0xaa:0', mode: 'test' });
    expect(posting!.entries).toEqual([
      { account: 'deposits:base', asset: 'usdc:base', amount: 25_500_000n },
      { account: 'cross_chain_clearing', asset: 'usdc:base', amount: -25_500_000n },
      { account: 'cross_chain_clearing', asset: 'usdc:solana', amount: 25_500_000n },
      { account: 'merchant_payable:mer_1', asset: 'usdc:solana', amount: -25_500_000n },
    ]);
  });

  it('owes the merchant $100 for a $100 order paid in USDT at 0.95, not the 105.263158 USDT received', () => {
    const [posting] = depositPostings([{ ...base, chain: 'tron', token: 'USDT', amount: 105_263_158n }], price(10_000n, 105_263_158n));
    expect(sum(posting!.entries, 'merchant_payable:mer_1', 'usdc:solana')).toBe(-100_000_000n);
    expect(sum(posting!.entries, 'deposits:tron', 'usdt:tron')).toBe(105_263_158n);
    expect(isBalanced(posting!)).toBe(true);
  });

  it('posts an overpayment beyond tolerance whole: the merchant owed its price, the customer the excess', () => {
    const deposits: CreditedDeposit[] = [
      { ...base, chain: 'solana', token: 'USDC', txHash: '0x01', amount: 80_000_000n },
      { ...base, chain: 'solana', token: 'USDC', txHash: '0x02', amount: 70_000_000n },
    ];
    const postings = depositPostings(deposits, price(10_000n, 100_000_000n));
    const entries = postings.flatMap((p) => p.entries);
    expect(postings.every(isBalanced)).toBe(true);
    expect(sum(entries, 'deposits:solana', 'usdc:solana')).toBe(150_000_000n);
    expect(sum(entries, 'merchant_payable:mer_1', 'usdc:solana')).toBe(-100_000_000n);
    expect(sum(entries, 'refund_due:solana', 'usdc:solana')).toBe(-50_000_000n);
    expect(postings[1]!.entries).toEqual([
      { account: 'deposits:solana', asset: 'usdc:solana', amount: 70_000_000n },
      { account: 'merchant_payable:mer_1', asset: 'usdc:solana', amount: -20_000_000n },
      { account: 'refund_due:solana', asset: 'usdc:solana', amount: -50_000_000n },
    ]);
  });

  it('rescales 18-decimal deposits so their payables add up to the whole amount rescaled, as the payout pays it', () => {
    const deposits: CreditedDeposit[] = [
      { ...base, chain: 'bsc', token: 'USDT', txHash: '0x01', amount: 1_000_000_400_000_000_000n },
      { ...base, chain: 'bsc', token: 'USDT', txHash: '0x02', amount: 2_000_000_700_000_000_000n },
    ];
    const postings = depositPostings(deposits, price(301n, 3_010_000n * 10n ** 12n, 18));
    const entries = postings.flatMap((p) => p.entries);
    // Each alone truncates to 1.000000 and 2.000000; together they are 3.000001.
    expect(-sum(entries, 'merchant_payable:mer_1', 'usdc:solana')).toBe(3_000_001n);
    expect(sum(entries, 'deposits:bsc', 'usdt:bsc')).toBe(3_000_001_100_000_000_000n);
  });

  it('holds a deposit too small to owe a micro-unit: its units are posted, the merchant owed nothing for them', () => {
    const postings = depositPostings([{ ...base, chain: 'bsc', token: 'USDC', amount: 999_999_999_999n }], price(100n, 10n ** 18n, 18));
    expect(postings.map((p) => p.entries)).toEqual([
      [
        { account: 'deposits:bsc', asset: 'usdc:bsc', amount: 999_999_999_999n },
        { account: 'cross_chain_clearing', asset: 'usdc:bsc', amount: -999_999_999_999n },
      ],
    ]);
  });
});
