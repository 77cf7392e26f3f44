import { describe, expect, it } from 'vitest';
import { creditPostings, settlementPostings, type PaymentDeposit } from '../../../domain/ledger/depositPostings';
import { isBalanced, type LedgerPosting } from '../../../domain/ledger/ledger';
import type { QuotedPrice } from '../../../domain/settlement/unitOwnership';

const base = { txHash: '0xaa', logIndex: 0, merchantId: 'mer_1', mode: 'test' } as const;
const sum = (postings: LedgerPosting[], account: string, asset: string) =>
  postings
    .flatMap((p) => p.entries)
    .filter((e) => e.account === account && e.asset === asset)
    .reduce((total, e) => total + e.amount, 0n);
/** A session of `cents` asking for `expected` base units at `decimals`: the price the payment was quoted at. */
const price = (cents: bigint, expected: bigint, decimals = 6, bankCents = 0n): QuotedPrice => ({
  amountUsdCents: cents,
  expectedBaseUnits: expected,
  decimals,
  bankCents,
});
/** The credits of `deposits` and the settlement that follows them, as the workflow and then the signer post them. */
function creditedThenSettled(deposits: PaymentDeposit[], credit: QuotedPrice, settle = credit) {
  const credits = creditPostings(deposits, credit);
  const pending = credits.map(
    (p) => -p.entries.filter((e) => e.account.startsWith('merchant_pending:')).reduce((t, e) => t + e.amount, 0n),
  );
  return { credits, settlements: settlementPostings(deposits, settle, pending) };
}

describe('creditPostings', () => {
  it('posts a credited deposit to deposits:<chain>, the part paying the price pending for the merchant in its own token', () => {
    const [posting] = creditPostings([{ ...base, chain: 'base', token: 'USDC', amount: 25_500_000n }], price(2550n, 25_500_000n));
    expect(posting).toMatchObject({ groupId: 'deposit:base:0xaa:0', mode: 'test' });
    expect(posting!.entries).toEqual([
      { account: 'deposits:base', asset: 'usdc:base', amount: 25_500_000n },
      { account: 'merchant_pending:base', asset: 'usdc:base', amount: -25_500_000n },
    ]);
  });

  it('owes the customer what arrives after the amount asked for, at credit, in the order deposits arrived', () => {
    const deposits: PaymentDeposit[] = [
      { ...base, chain: 'solana', token: 'USDC', txHash: '0x01', amount: 80_000_000n },
      { ...base, chain: 'solana', token: 'USDC', txHash: '0x02', amount: 70_000_000n },
    ];
    const postings = creditPostings(deposits, price(10_000n, 100_000_000n));
    expect(postings.every(isBalanced)).toBe(true);
    expect(postings[1]!.entries).toEqual([
      { account: 'deposits:solana', asset: 'usdc:solana', amount: 70_000_000n },
      { account: 'merchant_pending:solana', asset: 'usdc:solana', amount: -20_000_000n },
      { account: 'refund_due:solana', asset: 'usdc:solana', amount: -50_000_000n },
    ]);
  });
});

describe('settlementPostings', () => {
  it('makes a Solana USDC deposit owed to the merchant in USDC, empty of what was pending', () => {
    const { credits, settlements } = creditedThenSettled(
      [{ ...base, chain: 'solana', token: 'USDC', amount: 7_000_000n }],
      price(700n, 7_000_000n),
    );
    const all = [...credits, ...settlements];
    expect(settlements[0]).toMatchObject({ groupId: 'deposit:solana:0xaa:0:settled', reference: 'deposit:solana:0xaa:0' });
    expect(all.every(isBalanced)).toBe(true);
    expect(sum(all, 'merchant_pending:solana', 'usdc:solana')).toBe(0n);
    expect(sum(all, 'deposits:solana', 'usdc:solana')).toBe(7_000_000n);
    expect(sum(all, 'merchant_payable:mer_1', 'usdc:solana')).toBe(-7_000_000n);
  });

  it('owes the merchant $100 for a $100 order paid in USDT at 0.95, not the 105.263158 USDT received', () => {
    const { credits, settlements } = creditedThenSettled(
      [{ ...base, chain: 'tron', token: 'USDT', amount: 105_263_158n }],
      price(10_000n, 105_263_158n),
    );
    const all = [...credits, ...settlements];
    expect(sum(all, 'merchant_payable:mer_1', 'usdc:solana')).toBe(-100_000_000n);
    expect(sum(all, 'cross_chain_clearing', 'usdt:tron')).toBe(-105_263_158n);
    expect(sum(all, 'merchant_pending:tron', 'usdt:tron')).toBe(0n);
    expect(all.every(isBalanced)).toBe(true);
  });

  it('owes the customer the units a bank transfer credited after them paid instead, leaving nothing pending', () => {
    // $100: 80 USDC arrived and were credited whole, then a $30 bank transfer: the crypto part is $70.
    const deposits: PaymentDeposit[] = [{ ...base, chain: 'solana', token: 'USDC', amount: 80_000_000n }];
    const { credits, settlements } = creditedThenSettled(deposits, price(10_000n, 100_000_000n), price(10_000n, 100_000_000n, 6, 3_000n));
    const all = [...credits, ...settlements];
    expect(all.every(isBalanced)).toBe(true);
    expect(sum(all, 'merchant_payable:mer_1', 'usdc:solana')).toBe(-70_000_000n);
    expect(sum(all, 'refund_due:solana', 'usdc:solana')).toBe(-10_000_000n);
    expect(sum(all, 'merchant_pending:solana', 'usdc:solana')).toBe(0n);
  });

  it('rescales 18-decimal deposits so their payables add up to the whole amount rescaled, as the payout pays it', () => {
    const deposits: PaymentDeposit[] = [
      { ...base, chain: 'bsc', token: 'USDT', txHash: '0x01', amount: 1_000_000_400_000_000_000n },
      { ...base, chain: 'bsc', token: 'USDT', txHash: '0x02', amount: 2_000_000_700_000_000_000n },
    ];
    const { credits, settlements } = creditedThenSettled(deposits, price(301n, 3_010_000n * 10n ** 12n, 18));
    const all = [...credits, ...settlements];
    // Each alone truncates to 1.000000 and 2.000000; together they are 3.000001.
    expect(-sum(all, 'merchant_payable:mer_1', 'usdc:solana')).toBe(3_000_001n);
    expect(sum(all, 'deposits:bsc', 'usdt:bsc')).toBe(3_000_001_100_000_000_000n);
  });

  it('holds a deposit too small to owe a micro-unit: its units are cleared, the merchant owed nothing for them', () => {
    const { settlements } = creditedThenSettled(
      [{ ...base, chain: 'bsc', token: 'USDC', amount: 999_999_999_999n }],
      price(100n, 10n ** 18n, 18),
    );
    expect(settlements.map((p) => p.entries)).toEqual([
      [
        { account: 'merchant_pending:bsc', asset: 'usdc:bsc', amount: 999_999_999_999n },
        { account: 'cross_chain_clearing', asset: 'usdc:bsc', amount: -999_999_999_999n },
      ],
    ]);
  });

  it('refuses settling deposits without what their credits left pending', () => {
    expect(() => settlementPostings([{ ...base, chain: 'solana', token: 'USDC', amount: 1n }], price(1n, 10_000n), [])).toThrow(RangeError);
  });
});
