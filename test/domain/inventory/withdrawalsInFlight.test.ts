import { describe, expect, it } from 'vitest';
import { expectedAfterWithdrawals, withdrawnNotPosted } from '../../../domain/inventory/withdrawalsInFlight';

describe('held-inventory withdrawals landed and not posted, in reconciliation', () => {
  const withdrawals = [
    { chain: 'tron', token: 'USDT', amount: 5n, intentStatus: 'confirmed' },
    { chain: 'tron', token: 'USDT', amount: 2n, intentStatus: 'broadcast' },
    { chain: 'bsc', token: 'USDT', amount: 7n, intentStatus: 'confirmed' },
    { chain: 'bsc', token: 'USDC', amount: 3n, intentStatus: 'finalized' },
  ] as const;

  it('count where the collector is read: Tron once a block holds it, an EVM chain once final at its depth', () => {
    expect(withdrawnNotPosted(withdrawals)).toEqual([
      { account: 'collector:tron', asset: 'usdt:tron', amount: 5n },
      { account: 'collector:bsc', asset: 'usdc:bsc', amount: 3n },
    ]);
  });

  it('are taken off the collector the ledger expects, so only what no withdrawal explains differs', () => {
    const ledger = [
      { account: 'collector:tron', asset: 'usdt:tron', amount: 9n },
      { account: 'treasury:solana', asset: 'usdc:solana', amount: 100n },
    ] as const;
    expect(expectedAfterWithdrawals(ledger, withdrawnNotPosted(withdrawals))).toEqual([
      { account: 'collector:tron', asset: 'usdt:tron', amount: 4n },
      { account: 'treasury:solana', asset: 'usdc:solana', amount: 100n },
      { account: 'collector:bsc', asset: 'usdc:bsc', amount: -3n },
    ]);
  });
});
