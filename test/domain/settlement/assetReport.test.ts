// The operator's report per asset from the ledger's balances: where each asset is, what is in flight, gas and revenue.
import { describe, expect, it } from 'vitest';
import { assetReport } from '../../../domain/settlement/assetReport';

describe('asset report', () => {
  it('sums each account kind into its column per asset, held and earned shown positive', () => {
    expect(
      assetReport([
        { account: 'treasury:solana', asset: 'usdc:solana', amount: 90_000_000n },
        { account: 'payouts_in_flight', asset: 'usdc:solana', amount: -7_000_000n },
        { account: 'refunds_in_flight', asset: 'usdc:solana', amount: -1_000_000n },
        { account: 'operator_revenue', asset: 'usdc:solana', amount: -250_000n },
        { account: 'operator_held:solana', asset: 'usdc:solana', amount: -10_000n },
        { account: 'deposits:solana', asset: 'usdc:solana', amount: 3_000_000n },
        { account: 'merchant_payable:mer_1', asset: 'usdc:solana', amount: -5_000_000n },
        { account: 'collector:base', asset: 'usdc:base', amount: 4_000_000n },
        { account: 'transfers_in_flight', asset: 'usdc:base', amount: 2_000_000n },
        { account: 'deposits:base', asset: 'usdc:base', amount: 1_000_000n },
        { account: 'gas_expense:base', asset: 'native:base', amount: 21_000_000_000n },
        { account: 'gas_expense:solana', asset: 'sol:solana', amount: 5_000n },
        { account: 'collector:tron', asset: 'usdt:tron', amount: 0n },
      ]),
    ).toEqual([
      { asset: 'native:base', treasury: 0n, collectors: 0n, deposits: 0n, inFlight: 0n, gasSpent: 21_000_000_000n, revenue: 0n, held: 0n },
      { asset: 'sol:solana', treasury: 0n, collectors: 0n, deposits: 0n, inFlight: 0n, gasSpent: 5_000n, revenue: 0n, held: 0n },
      {
        asset: 'usdc:base',
        treasury: 0n,
        collectors: 4_000_000n,
        deposits: 1_000_000n,
        inFlight: 2_000_000n,
        gasSpent: 0n,
        revenue: 0n,
        held: 0n,
      },
      {
        asset: 'usdc:solana',
        treasury: 90_000_000n,
        collectors: 0n,
        deposits: 3_000_000n,
        inFlight: 8_000_000n,
        gasSpent: 0n,
        revenue: 250_000n,
        held: 10_000n,
      },
    ]);
  });

  it('reports nothing of an empty ledger', () => {
    expect(assetReport([])).toEqual([]);
  });
});
