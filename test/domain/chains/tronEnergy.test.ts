// A Tron sweep's energy, fee limit and the relayer's resources against it (domain/chains/tronEnergy.ts); the figures
// themselves are recomputed from the bytecode in test/contracts/tvmDepositContracts.test.ts.
import { describe, expect, it } from 'vitest';
import {
  SWEEP_FIRST_ADDRESS_ENERGY,
  SWEEP_MANY_BASE_ENERGY,
  TOKEN_TRANSFER_ENERGY,
  callBandwidthBytes,
  energyOfFeeLimit,
  forwarderSweepEnergy,
  collectorRebalanceEnergy,
  hdTransferEnergy,
  judgeTronResources,
  tronFeeLimitSun,
} from '../../../domain/chains/tronEnergy';

const prices = { energyFeeSun: 210n, bandwidthFeeSun: 1_000n, dynamicEnergyMaxFactor: 34_000n };
const flat = { ...prices, dynamicEnergyMaxFactor: 0n };

describe('a Tron sweep’s energy', () => {
  it('is the base and a first sweep per address, the token’s share raised to the dynamic-energy ceiling', () => {
    expect(forwarderSweepEnergy(3, flat)).toBe(SWEEP_MANY_BASE_ENERGY + 3n * SWEEP_FIRST_ADDRESS_ENERGY);
    expect(forwarderSweepEnergy(3, prices)).toBe(
      SWEEP_MANY_BASE_ENERGY + 3n * SWEEP_FIRST_ADDRESS_ENERGY + (3n * TOKEN_TRANSFER_ENERGY * 34n) / 10n,
    );
    expect(hdTransferEnergy(flat)).toBe(TOKEN_TRANSFER_ENERGY);
    expect(() => forwarderSweepEnergy(0, prices)).toThrow(RangeError);
  });

  it("is the node's own run of the call when that used more", () => {
    expect(forwarderSweepEnergy(1, prices, 5_000_000n)).toBe(5_000_000n);
    expect(forwarderSweepEnergy(1, prices, 1n)).toBe(forwarderSweepEnergy(1, prices));
    expect(hdTransferEnergy(prices, 130_000n)).toBe(130_000n);
    expect(collectorRebalanceEnergy(prices, 140_000n)).toBe(140_000n);
    expect(collectorRebalanceEnergy(flat, 1n)).toBe(TOKEN_TRANSFER_ENERGY);
  });
});

describe('the fee limit', () => {
  it('burns all the energy at the network’s price with a 50% margin, never above the cap, and gives its energy back', () => {
    expect(tronFeeLimitSun(100_000n, prices, 10n ** 12n)).toBe(31_500_000n);
    expect(tronFeeLimitSun(100_000n, prices, 1_000_000n)).toBe(1_000_000n);
    expect(energyOfFeeLimit(31_500_000n, prices)).toBe(100_000n);
  });
});

describe("the relayer's resources against a call", () => {
  const need = { energy: 100_000n, bandwidthBytes: callBandwidthBytes('00'.repeat(100)) };
  it('spends held energy first and burns the rest, bandwidth free when one source covers the bytes', () => {
    expect(need.bandwidthBytes).toBe(400n);
    expect(judgeTronResources(need, { energyAvailable: 150_000n, trxBalanceSun: 0n, bandwidthAvailable: 600n }, prices)).toEqual({
      kind: 'enough',
      energyNeeded: 150_000n,
      burnSun: 0n,
    });
    expect(judgeTronResources(need, { energyAvailable: 100_000n, trxBalanceSun: 10_500_000n, bandwidthAvailable: 600n }, prices)).toEqual({
      kind: 'enough',
      energyNeeded: 150_000n,
      burnSun: 10_500_000n,
    });
  });

  it('is short, with the reason, when energy and TRX cannot cover it, bandwidth burned whole past what it holds', () => {
    const verdict = judgeTronResources(need, { energyAvailable: 100_000n, trxBalanceSun: 10_500_000n, bandwidthAvailable: 399n }, prices);
    expect(verdict).toEqual({
      kind: 'short',
      energyNeeded: 150_000n,
      burnSun: 10_900_000n,
      reason:
        'the relayer holds 100000 energy and 10500000 sun; the sweep needs 150000 energy, so 10900000 sun to burn: stake or rent energy, or send it TRX',
    });
  });
});
