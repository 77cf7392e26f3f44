import { describe, expect, it } from 'vitest';
import { inventoryRebalanced, inventoryWithdrawn, usdcWorth } from '../../../domain/ledger/inventoryPostings';
import { isBalanced } from '../../../domain/ledger/ledger';

describe('inventoryWithdrawn', () => {
  it('moves the withdrawn tokens from the collector to rebalancing:<chain> under the intent’s id', () => {
    const posting = inventoryWithdrawn({ withdrawalId: 'inw_1', mode: 'live', pair: { token: 'USDT', chain: 'tron' } }, 70_000_000n);
    expect(posting).toEqual({
      groupId: 'rebalance:tron:inw_1:sent',
      mode: 'live',
      reference: 'rebalance:tron:inw_1',
      entries: [
        { account: 'rebalancing:tron', asset: 'usdt:tron', amount: 70_000_000n },
        { account: 'collector:tron', asset: 'usdt:tron', amount: -70_000_000n },
      ],
    });
    expect(() => inventoryWithdrawn({ withdrawalId: 'inw_1', mode: 'live', pair: { token: 'USDT', chain: 'tron' } }, 0n)).toThrow(
      RangeError,
    );
  });
});

describe('usdcWorth', () => {
  it('counts a token unit as one USDC micro-unit, truncating bsc’s 18 decimals', () => {
    expect(usdcWorth('usdt:tron', 1_500_000n)).toBe(1_500_000n);
    expect(usdcWorth('usdt:bsc', 1_500_000_999_999_999_999n)).toBe(1_500_000n);
  });
});

describe('inventoryRebalanced', () => {
  it('closes rebalancing:<chain> and the clearing short, the treasury gains what arrived, the rest is the exchange difference', () => {
    const posting = inventoryRebalanced('live', 'bsc', 'SiG', {
      inFlight: [
        { asset: 'usdt:bsc', amount: 60n * 10n ** 18n },
        { asset: 'usdc:bsc', amount: 40n * 10n ** 18n },
      ],
      receivedUsdc: 99_500_000n,
    });
    expect(posting.groupId).toBe('inventory-rebalanced:bsc:SiG');
    expect(isBalanced(posting)).toBe(true);
    expect(posting.entries).toEqual([
      { account: 'cross_chain_clearing', asset: 'usdt:bsc', amount: 60n * 10n ** 18n },
      { account: 'rebalancing:bsc', asset: 'usdt:bsc', amount: -(60n * 10n ** 18n) },
      { account: 'cross_chain_clearing', asset: 'usdc:bsc', amount: 40n * 10n ** 18n },
      { account: 'rebalancing:bsc', asset: 'usdc:bsc', amount: -(40n * 10n ** 18n) },
      { account: 'treasury:solana', asset: 'usdc:solana', amount: 99_500_000n },
      { account: 'cross_chain_clearing', asset: 'usdc:solana', amount: -100_000_000n },
      { account: 'exchange_difference:bsc', asset: 'usdc:solana', amount: 500_000n },
    ]);
  });

  it('books a gain as a credit of the exchange difference, and none when the USDC is exactly the worth', () => {
    const gain = inventoryRebalanced('test', 'tron', 'S', {
      inFlight: [{ asset: 'usdt:tron', amount: 10_000_000n }],
      receivedUsdc: 10_100_000n,
    });
    expect(gain.entries.at(-1)).toEqual({ account: 'exchange_difference:tron', asset: 'usdc:solana', amount: -100_000n });
    const even = inventoryRebalanced('test', 'tron', 'S', {
      inFlight: [{ asset: 'usdt:tron', amount: 10_000_000n }],
      receivedUsdc: 10_000_000n,
    });
    expect(even.entries.some((e) => e.account.startsWith('exchange_difference'))).toBe(false);
  });

  it('refuses a rebalance with nothing in flight', () => {
    expect(() => inventoryRebalanced('test', 'tron', 'S', { inFlight: [{ asset: 'usdt:tron', amount: 0n }], receivedUsdc: 1n })).toThrow(
      'nothing is in flight in rebalancing:tron',
    );
  });
});
