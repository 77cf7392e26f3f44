import { describe, expect, it } from 'vitest';
import { fundedMaxFeePerGas, hdSweepTopUp, hdSweptAmount } from '../../../domain/sweeps/evmHdSweep';
import { gasLimitFor } from '../../../domain/chainWrites/evmChainIntent';

const cost = { gasLimit: 60_000n, fees: { maxFeePerGas: 3_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n } };

describe('the top-up of an HD deposit address', () => {
  it("is the transfer's gas limit at its max fee, less what the address holds", () => {
    expect(hdSweepTopUp(cost, 0n)).toBe(180_000_000_000_000n);
    expect(hdSweepTopUp(cost, 30_000_000_000_000n)).toBe(150_000_000_000_000n);
  });

  it('is nothing when the address holds enough', () => {
    expect(hdSweepTopUp(cost, 180_000_000_000_000n)).toBe(0n);
    expect(hdSweepTopUp(cost, 10n ** 18n)).toBe(0n);
  });

  it('refuses a transfer that costs nothing: a zero estimate is a broken node, not a free transaction', () => {
    expect(() => hdSweepTopUp({ ...cost, gasLimit: 0n }, 0n)).toThrow(RangeError);
    expect(() => hdSweepTopUp({ ...cost, fees: { maxFeePerGas: 0n, maxPriorityFeePerGas: 0n } }, 0n)).toThrow(RangeError);
  });

  it('funds exactly the fee the transfer may then be signed with', () => {
    const gasLimit = gasLimitFor(50_000n);
    const held = hdSweepTopUp({ gasLimit, fees: cost.fees }, 7n);
    expect(fundedMaxFeePerGas(held + 7n, gasLimit)).toBe(cost.fees.maxFeePerGas);
    expect(fundedMaxFeePerGas(held + 6n, gasLimit)).toBe(cost.fees.maxFeePerGas - 1n);
    expect(() => fundedMaxFeePerGas(1n, 0n)).toThrow(RangeError);
  });
});

describe('what an HD sweep moved', () => {
  const swept = { token: '0xToken', from: '0xHd', to: '0xCollector' };
  const log = { emitter: '0xtoken', from: '0xhd', to: '0xcollector', value: 5n, logIndex: 2 };

  it("sums the token's Transfer events from the address to the collector, whatever the case of the addresses", () => {
    expect(hdSweptAmount([log, { ...log, value: 7n, logIndex: 4 }], swept)).toEqual({ moved: 12n, lastLogIndex: 4 });
  });

  it("ignores another contract's events, other senders and other receivers", () => {
    const others = [
      { ...log, emitter: '0xother' },
      { ...log, from: '0xelse' },
      { ...log, to: '0xelse' },
    ];
    expect(hdSweptAmount(others, swept)).toEqual({ moved: 0n, lastLogIndex: undefined });
  });
});
