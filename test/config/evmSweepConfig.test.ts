import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env';

describe('the relayer and EVM sweep configuration', () => {
  it('has documented defaults: Ethereum L1 waits for 500 tokens, the L2s sweep anything, batches of 50', () => {
    const { evmSweeps } = loadConfig({}, 'worker');
    expect(evmSweeps).toMatchObject({
      relayerKeys: { test: undefined, live: undefined },
      stuckAfterSeconds: 180,
      feeBumpPercent: 20,
      batchSize: 50,
      maxAddressFailures: 3,
    });
    expect(evmSweeps.minimumWholeTokens).toEqual({ ethereum: 500, polygon: 0, arbitrum: 0, optimism: 0, base: 0, bsc: 0 });
    expect(evmSweeps.maxFeePerGasWei.ethereum).toBe(200_000_000_000n);
  });

  it('reads fee ceilings in gwei, thresholds in whole tokens', () => {
    const { evmSweeps } = loadConfig(
      { EVM_MAX_FEE_PER_GAS_GWEI_BASE: '0.25', SWEEP_MIN_AMOUNT_ETHEREUM: '1000', SWEEP_BATCH_SIZE: '20', SWEEP_MAX_ADDRESS_FAILURES: '5' },
      'worker',
    );
    expect(evmSweeps.maxFeePerGasWei.base).toBe(250_000_000n);
    expect(evmSweeps.minimumWholeTokens.ethereum).toBe(1000);
    expect(evmSweeps.batchSize).toBe(20);
    expect(evmSweeps.maxAddressFailures).toBe(5);
    expect(() => loadConfig({ SWEEP_MAX_ADDRESS_FAILURES: '0' }, 'worker')).toThrow(/SWEEP_MAX_ADDRESS_FAILURES/);
  });

  it('refuses a bad value at start, naming the variable', () => {
    expect(() => loadConfig({ EVM_MAX_FEE_PER_GAS_GWEI_POLYGON: 'lots' }, 'worker')).toThrow(
      /EVM_MAX_FEE_PER_GAS_GWEI_POLYGON: must be a number of gwei/,
    );
    expect(() => loadConfig({ EVM_FEE_BUMP_PERCENT: '5' }, 'worker')).toThrow(/EVM_FEE_BUMP_PERCENT/);
    expect(() => loadConfig({ SWEEP_BATCH_SIZE: '0' }, 'worker')).toThrow(/SWEEP_BATCH_SIZE/);
    expect(() => loadConfig({ SWEEP_MIN_AMOUNT_ETHEREUM: '-1' }, 'worker')).toThrow(/SWEEP_MIN_AMOUNT_ETHEREUM/);
  });
});
