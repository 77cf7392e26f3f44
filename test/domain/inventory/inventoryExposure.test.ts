import { describe, expect, it } from 'vitest';
import { inventoryExposure } from '../../../domain/inventory/inventoryExposure';

describe('inventoryExposure', () => {
  it('is the clearing account’s short in the asset, wherever its units are', () => {
    const exposure = inventoryExposure({
      asset: 'usdt:tron',
      crossChainClearing: -300_000_000n,
      collector: 200_000_000n,
      rebalancing: 50_000_000n,
      deposits: 60_000_000n,
    });
    expect(exposure).toEqual({
      asset: 'usdt:tron',
      exposure: 300_000_000n,
      held: 200_000_000n,
      inFlight: 50_000_000n,
      atDepositAddresses: 60_000_000n,
    });
  });

  it('is nothing once rebalancing closed the short, even past it', () => {
    const base = { asset: 'usdt:bsc' as const, collector: 0n, rebalancing: 0n, deposits: 0n };
    expect(inventoryExposure({ ...base, crossChainClearing: 0n }).exposure).toBe(0n);
    expect(inventoryExposure({ ...base, crossChainClearing: 5n }).exposure).toBe(0n);
  });
});
