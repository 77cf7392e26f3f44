import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../config/env';

const ROUTER = '0x68b3465833fb72a70ecdf485e0e4c7bd8665fc45';
const QUOTER = '0x61ffe014ba17989e743c5f6cb21bf9697530b21e';

describe('swap configuration', () => {
  test('defaults: fee tier 100, 50 bps, no chain swaps', () => {
    const { swaps } = loadConfig({}, 'worker');
    expect(swaps).toEqual({ contracts: { mainnet: {}, testnet: {} }, poolFee: 100, maxDeviationBps: 50 });
  });

  test('a chain and network swaps with both its router and its quoter', () => {
    const { swaps } = loadConfig(
      { SWAP_ROUTER_BASE_MAINNET: ROUTER, SWAP_QUOTER_BASE_MAINNET: QUOTER, SWAP_POOL_FEE: '500', SWAP_MAX_DEVIATION_BPS: '20' },
      'worker',
    );
    expect(swaps).toEqual({
      contracts: { mainnet: { base: { router: ROUTER, quoter: QUOTER } }, testnet: {} },
      poolFee: 500,
      maxDeviationBps: 20,
    });
  });

  test('each bad value is named', () => {
    expect(() => loadConfig({ SWAP_ROUTER_BASE_TESTNET: ROUTER }, 'worker')).toThrow(
      /SWAP_QUOTER_BASE_TESTNET: is needed with SWAP_ROUTER_BASE_TESTNET/,
    );
    expect(() => loadConfig({ SWAP_QUOTER_POLYGON_MAINNET: '0x1234' }, 'worker')).toThrow(
      /SWAP_QUOTER_POLYGON_MAINNET: is not an EVM address/,
    );
    expect(() => loadConfig({ SWAP_POOL_FEE: '30' }, 'worker')).toThrow(/SWAP_POOL_FEE: must be a Uniswap V3 fee tier/);
    expect(() => loadConfig({ SWAP_MAX_DEVIATION_BPS: '5000' }, 'worker')).toThrow(/SWAP_MAX_DEVIATION_BPS/);
  });
});
