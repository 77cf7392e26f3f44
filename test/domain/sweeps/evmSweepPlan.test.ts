import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SWEEP_MIN_AMOUNT,
  EVM_CHAINS,
  holdingsToSweep,
  minimumBaseUnits,
  planEvmSweepBatches,
  sweptAmounts,
  type EvmSweepCandidate,
} from '../../../domain/sweeps/evmSweepPlan';

const FACTORY_A = '0x00000000000000000000000000000000000000aa';
const FACTORY_B = '0x00000000000000000000000000000000000000bb';
const candidate = (n: number, balance: bigint, factory = FACTORY_A): EvmSweepCandidate => ({
  address: `0x${n.toString(16).padStart(40, '0')}`,
  salt: `0x${n.toString(16).padStart(64, '0')}`,
  factory,
  sessionId: `sess_${n}`,
  balance,
});

describe('holdingsToSweep (HD addresses, one sweep each)', () => {
  const hd = (n: number, balance: bigint) => ({ address: `0x${n.toString(16).padStart(40, '0')}`, balance });

  it('takes the addresses holding something, each once, in address order, whatever the case', () => {
    const taken = holdingsToSweep([hd(3, 1n), hd(1, 5n), hd(2, 0n), { ...hd(3, 1n), address: hd(3, 1n).address.toUpperCase() }], 0n);
    expect(taken.map((h) => h.address)).toEqual([hd(1, 5n).address, hd(3, 1n).address]);
  });

  it('takes nothing while their total is below the minimum, as forwarder batches wait', () => {
    expect(holdingsToSweep([hd(1, 4n), hd(2, 5n)], 10n)).toEqual([]);
    expect(holdingsToSweep([hd(1, 4n), hd(2, 6n)], 10n)).toHaveLength(2);
  });
});

describe('planEvmSweepBatches', () => {
  it('leaves out empty addresses and cuts the rest into batches of the size, in address order', () => {
    const batches = planEvmSweepBatches([candidate(3, 1n), candidate(1, 5n), candidate(2, 0n), candidate(4, 2n)], {
      minimum: 0n,
      batchSize: 2,
    });
    expect(batches.map((b) => b.addresses.map((a) => a.sessionId))).toEqual([['sess_1', 'sess_3'], ['sess_4']]);
  });

  it('plans nothing while the total is below the minimum, everything once it reaches it', () => {
    expect(planEvmSweepBatches([candidate(1, 4n), candidate(2, 5n)], { minimum: 10n, batchSize: 50 })).toEqual([]);
    expect(planEvmSweepBatches([candidate(1, 4n), candidate(2, 6n)], { minimum: 10n, batchSize: 50 })).toHaveLength(1);
  });

  it('gives each factory its own sweepMany and takes an address named twice once', () => {
    const batches = planEvmSweepBatches([candidate(1, 1n, FACTORY_B), candidate(2, 1n), candidate(1, 1n, FACTORY_B)], {
      minimum: 0n,
      batchSize: 50,
    });
    expect(batches.map((b) => [b.factory, b.addresses.length])).toEqual([
      [FACTORY_A, 1],
      [FACTORY_B, 1],
    ]);
  });

  it('refuses a batch size below one', () => {
    expect(() => planEvmSweepBatches([], { minimum: 0n, batchSize: 0 })).toThrow(RangeError);
  });
});

describe('sweep thresholds', () => {
  it('wait on Ethereum L1 only by default, in whole tokens', () => {
    expect(EVM_CHAINS.filter((chain) => DEFAULT_SWEEP_MIN_AMOUNT[chain] > 0)).toEqual(['ethereum']);
    expect(minimumBaseUnits(500, 6)).toBe(500_000_000n);
    expect(minimumBaseUnits(500, 18)).toBe(500n * 10n ** 18n);
  });
});

describe('sweptAmounts', () => {
  const log = (emitter: string, forwarder: string, amount: bigint, logIndex: number, token = '0xToken') => ({
    emitter,
    forwarder,
    token,
    amount,
    logIndex,
  });

  it("counts the factory's Swept events of the token only, per address", () => {
    const swept = sweptAmounts(
      [
        log(FACTORY_A, '0xAB', 5n, 3),
        log(FACTORY_A, '0xcd', 0n, 4),
        log(FACTORY_B, '0xab', 99n, 5),
        log(FACTORY_A, '0xab', 7n, 6, '0xOther'),
      ],
      FACTORY_A.toUpperCase().replace('0X', '0x'),
      '0xtoken',
    );
    expect(swept).toEqual({
      perAddress: new Map([
        ['0xab', 5n],
        ['0xcd', 0n],
      ]),
      total: 5n,
      lastLogIndex: 4,
    });
  });

  it("finds nothing in a receipt without the factory's events", () => {
    expect(sweptAmounts([], FACTORY_A, '0xtoken')).toEqual({ perAddress: new Map(), total: 0n, lastLogIndex: undefined });
  });
});
