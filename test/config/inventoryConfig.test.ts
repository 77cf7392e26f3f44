import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env';

describe('held inventory configuration', () => {
  it('caps nothing and knows no rebalancing address by default', () => {
    const { inventory } = loadConfig({}, 'api');
    expect(inventory.caps.size).toBe(0);
    expect(inventory.rebalanceAddresses).toEqual({ test: {}, live: {} });
  });

  it('reads the caps and each chain’s rebalancing address per mode, EVM addresses in their checksum spelling', () => {
    const { inventory } = loadConfig(
      {
        INVENTORY_CAPS: 'USDT:tron=25000,USDT:bsc=10000',
        INVENTORY_REBALANCE_ADDRESS_BSC_LIVE: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
        INVENTORY_REBALANCE_ADDRESS_TRON_TEST: 'TLsV52sRDL79HXGGm9yzwKibb6BeruhUzy',
        INVENTORY_REBALANCE_ADDRESS_SOLANA_LIVE: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T',
      },
      'worker',
    );
    expect([...inventory.caps]).toEqual([
      ['USDT:tron', 25_000n],
      ['USDT:bsc', 10_000n],
    ]);
    expect(inventory.rebalanceAddresses).toEqual({
      test: { tron: 'TLsV52sRDL79HXGGm9yzwKibb6BeruhUzy' },
      live: { bsc: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', solana: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T' },
    });
  });

  it('refuses to start on a cap of a pair not held, or an address of another chain, naming the variable', () => {
    expect(() => loadConfig({ INVENTORY_CAPS: 'USDC:base=100' }, 'api')).toThrow(
      /invalid configuration: INVENTORY_CAPS: "USDC:base=100": USDC:base is not held as inventory/,
    );
    expect(() => loadConfig({ INVENTORY_REBALANCE_ADDRESS_TRON_LIVE: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed' }, 'api')).toThrow(
      /INVENTORY_REBALANCE_ADDRESS_TRON_LIVE: is not a Tron address/,
    );
  });
});
