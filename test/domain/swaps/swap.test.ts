import { describe, expect, test } from 'vitest';
import { decodeFunctionData } from 'viem';
import * as depositCollector from '../../../contracts/artifacts/depositCollector';
import { evmCallDifference, usdtSwapCall } from '../../../domain/chainWrites/intentCall';
import { ACCOUNT, isBalanced, swapLanded, sumByAsset } from '../../../domain/ledger/ledger';
import { atPar, judgeSwapQuote, judgeSwapStart, swapIdFor, swapIntentId } from '../../../domain/swaps/swap';

const USDT = '0x1111111111111111111111111111111111111111';
const COLLECTOR = '0x2222222222222222222222222222222222222222';

describe('judgeSwapQuote', () => {
  const judge = (quotedOut: bigint, maxDeviationBps = 50, decimalsIn = 6, decimalsOut = 6, amountIn = 1_000_000_000n) =>
    judgeSwapQuote({ amountIn, quotedOut, decimalsIn, decimalsOut, maxDeviationBps });

  test('within the ceiling the quote itself is the minimum out', () => {
    expect(judge(999_900_000n)).toEqual({ swap: true, minOut: 999_900_000n });
    expect(judge(995_000_000n)).toEqual({ swap: true, minOut: 995_000_000n });
    expect(judge(1_000_100_000n)).toEqual({ swap: true, minOut: 1_000_100_000n });
  });

  test('beyond it the swap waits, and a hair beyond counts as beyond', () => {
    expect(judge(994_999_999n)).toMatchObject({ swap: false, deviationBps: 51 });
    expect(judge(900_000_000n)).toMatchObject({ swap: false, deviationBps: 1000 });
    expect(judge(0n)).toMatchObject({ swap: false });
    expect(judge(999_000_000n, 0)).toMatchObject({ swap: false, deviationBps: 10 });
  });

  test('converts by decimals: 18-decimal USDT against 6-decimal USDC', () => {
    expect(judge(999_500n, 50, 18, 6, 10n ** 18n)).toEqual({ swap: true, minOut: 999_500n });
    expect(judge(990_000n, 50, 18, 6, 10n ** 18n)).toMatchObject({ swap: false, deviationBps: 100 });
    expect(atPar(1_000_000n, 6, 18)).toBe(10n ** 18n);
  });
});

describe('judgeSwapStart', () => {
  test('the whole balance once it reaches the minimum, nothing below it or at zero', () => {
    expect(judgeSwapStart({ balance: 150_000_000n, minimum: 100_000_000n })).toEqual({ start: true, amountIn: 150_000_000n });
    expect(judgeSwapStart({ balance: 99_999_999n, minimum: 100_000_000n })).toMatchObject({ start: false });
    expect(judgeSwapStart({ balance: 0n, minimum: 0n })).toMatchObject({ start: false });
  });
});

describe('the swap intent', () => {
  test('ids derive from the run, and the call is the collector’s swap of the row’s amount, pool and minimum', () => {
    expect(swapIdFor('swap_usdt_base_test-1')).toBe(swapIdFor('swap_usdt_base_test-1'));
    expect(swapIdFor('a')).not.toBe(swapIdFor('b'));
    expect(swapIntentId('sw_1')).toBe('swap:sw_1');
    const call = usdtSwapCall({ collector: COLLECTOR, tokenIn: USDT, poolFee: 100, amountIn: 5_000_000n, minOut: 4_999_000n });
    expect(call.to).toBe(COLLECTOR);
    expect(decodeFunctionData({ abi: depositCollector.abi, data: call.data as `0x${string}` })).toEqual({
      functionName: 'swap',
      args: [USDT, 100, 5_000_000n, 4_999_000n],
    });
    const lowered = usdtSwapCall({ collector: COLLECTOR, tokenIn: USDT, poolFee: 100, amountIn: 5_000_000n, minOut: 1n });
    expect(evmCallDifference(lowered, call)).toMatch(/data is not the one its row implies/);
  });
});

describe('swapLanded', () => {
  test('USDT leaves the collector and USDC enters it through clearing; the shortfall from par is the swap cost', () => {
    const posting = swapLanded('sw_1', 'test', 'base', { amountIn: 1_000_000_000n, par: 1_000_000_000n, amountOut: 999_800_000n });
    expect(posting.groupId).toBe('sw_1:swapped');
    expect(isBalanced(posting)).toBe(true);
    expect(posting.entries).toEqual([
      { account: ACCOUNT.crossChainClearing, asset: 'usdt:base', amount: 1_000_000_000n },
      { account: 'collector:base', asset: 'usdt:base', amount: -1_000_000_000n },
      { account: 'collector:base', asset: 'usdc:base', amount: 999_800_000n },
      { account: ACCOUNT.crossChainClearing, asset: 'usdc:base', amount: -999_800_000n },
      { account: 'swap_costs:base', asset: 'usdc:solana', amount: 200_000n },
      { account: ACCOUNT.crossChainClearing, asset: 'usdc:solana', amount: -200_000n },
    ]);
    expect([...sumByAsset(posting.entries).values()].every((sum) => sum === 0n)).toBe(true);
  });

  test('at par there is no cost entry, above par a negative one', () => {
    const atParPosting = swapLanded('sw_2', 'test', 'base', { amountIn: 5n, par: 5n, amountOut: 5n });
    expect(atParPosting.entries.some((e) => e.account === 'swap_costs:base')).toBe(false);
    const gain = swapLanded('sw_3', 'test', 'base', { amountIn: 5n, par: 5n, amountOut: 6n });
    expect(gain.entries.find((e) => e.account === 'swap_costs:base')?.amount).toBe(-1n);
  });
});
