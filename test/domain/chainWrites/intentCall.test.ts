import { decodeFunctionData, encodeFunctionData, erc20Abi, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import * as depositCollector from '../../../contracts/artifacts/depositCollector';
import * as depositFactory from '../../../contracts/artifacts/depositFactory';
import {
  cctpBurnCall,
  evmCallDifference,
  forwarderSweepCallDifference,
  hdSweepTransferCall,
  hdTopUpCallDifference,
} from '../../../domain/chainWrites/intentCall';

const TOKEN = '0x1111111111111111111111111111111111111111';
const COLLECTOR = '0x2222222222222222222222222222222222222222';
const ATTACKER = '0x3333333333333333333333333333333333333333';
const FACTORY = '0x4444444444444444444444444444444444444444';
const HD = '0x5555555555555555555555555555555555555555';
const SALTS = [`0x${'aa'.repeat(32)}`, `0x${'bb'.repeat(32)}`] as const;

const sweepMany = (salts: readonly string[], token: string = TOKEN) =>
  encodeFunctionData({ abi: depositFactory.abi, functionName: 'sweepMany', args: [salts as Hex[], token as Hex] });
const transfer = (to: string, amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to as Hex, amount] });

describe('evmCallDifference', () => {
  const planned = hdSweepTransferCall({ tokenAddress: TOKEN, collector: COLLECTOR, plannedBaseUnits: 2_500_000n });

  it("builds an HD sweep's transfer of its planned amount to its collector", () => {
    expect(planned.to).toBe(TOKEN);
    expect(planned.value).toBe('0');
    expect(decodeFunctionData({ abi: erc20Abi, data: planned.data as Hex })).toEqual({
      functionName: 'transfer',
      args: [COLLECTOR, 2_500_000n],
    });
  });

  it('accepts the same call written in another case', () => {
    expect(
      evmCallDifference(
        { ...planned, to: planned.to.toUpperCase().replace('0X', '0x'), data: planned.data.toUpperCase().replace('0X', '0x') },
        planned,
      ),
    ).toBeUndefined();
  });

  it('names each field that differs: the target, the data, the value', () => {
    expect(evmCallDifference({ ...planned, data: transfer(ATTACKER, 2_500_000n) }, planned)).toBe(
      'its data is not the one its row implies',
    );
    expect(evmCallDifference({ ...planned, data: transfer(COLLECTOR, 2_500_001n) }, planned)).toBe(
      'its data is not the one its row implies',
    );
    expect(evmCallDifference({ to: ATTACKER, data: '0x', value: '10' }, planned)).toBe(
      `it calls ${ATTACKER}, not ${TOKEN}; its data is not the one its row implies; it sends 10 wei, not 0`,
    );
    expect(evmCallDifference({ ...planned, value: 'lots' }, planned)).toBe('it sends lots wei, not 0');
    expect(evmCallDifference(null, planned)).toBe('it holds no call');
  });

  it("builds a CCTP burn from the transfer's amount, max fee and speed, on the collector", () => {
    const burn = cctpBurnCall({ collector: COLLECTOR, usdc: TOKEN, amount: 9_000_000n, maxFee: 900n, speed: 'fast' });
    expect(burn.to).toBe(COLLECTOR);
    expect(decodeFunctionData({ abi: depositCollector.abi, data: burn.data as Hex }).args).toEqual([TOKEN, 9_000_000n, 900n, 1000]);
    const greedier = cctpBurnCall({ collector: COLLECTOR, usdc: TOKEN, amount: 9_000_000n, maxFee: 9_000_000n, speed: 'fast' });
    expect(evmCallDifference(greedier, burn)).toBe('its data is not the one its row implies');
  });
});

describe('forwarderSweepCallDifference', () => {
  const sweep = { factory: FACTORY, tokenAddress: TOKEN, salts: SALTS };

  it("accepts sweepMany of the sweep's salts, in any order, and its token on its factory", () => {
    expect(forwarderSweepCallDifference({ to: FACTORY, data: sweepMany(SALTS), value: '0' }, sweep)).toBeUndefined();
    expect(forwarderSweepCallDifference({ to: FACTORY, data: sweepMany([...SALTS].reverse()), value: '0' }, sweep)).toBeUndefined();
  });

  it("refuses the relayer's coin sent elsewhere, another call, other salts or another token", () => {
    expect(forwarderSweepCallDifference({ to: ATTACKER, data: '0x', value: '1000000000000000000' }, sweep)).toBe(
      `it calls ${ATTACKER}, not the sweep's factory ${FACTORY}; it sends 1000000000000000000 wei, not 0; its data is not the factory's sweepMany`,
    );
    expect(forwarderSweepCallDifference({ to: FACTORY, data: transfer(ATTACKER, 1n), value: '0' }, sweep)).toBe(
      "its data is not the factory's sweepMany",
    );
    expect(forwarderSweepCallDifference({ to: FACTORY, data: sweepMany([SALTS[0]]), value: '0' }, sweep)).toBe(
      "it sweeps other salts than the sweep's addresses'",
    );
    expect(forwarderSweepCallDifference({ to: FACTORY, data: sweepMany(SALTS, ATTACKER), value: '0' }, sweep)).toBe(
      `it sweeps ${ATTACKER}, not the sweep's token ${TOKEN}`,
    );
  });
});

describe('hdTopUpCallDifference', () => {
  it('accepts coin sent to the swept address alone, and refuses it sent elsewhere or with a call', () => {
    expect(hdTopUpCallDifference({ to: HD, data: '0x', value: '21000' }, HD)).toBeUndefined();
    expect(hdTopUpCallDifference({ to: ATTACKER, data: '0x', value: '21000' }, HD)).toBe(
      `it pays ${ATTACKER}, not the swept address ${HD}`,
    );
    expect(hdTopUpCallDifference({ to: HD, data: transfer(ATTACKER, 1n), value: '0' }, HD)).toBe(
      'it carries call data; a top-up sends coin only',
    );
  });
});
