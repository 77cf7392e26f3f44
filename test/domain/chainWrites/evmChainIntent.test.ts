// What a signed EVM transaction's fate is and what a replacement offers (domain/chainWrites/evmChainIntent.ts).
import { describe, expect, it } from 'vitest';
import {
  initialFees,
  judgeEvmAttempt,
  nextNonce,
  replacementFees,
  type EvmAttemptObservation,
} from '../../../domain/chainWrites/evmChainIntent';

const base: EvmAttemptObservation = {
  nonce: 4n,
  minedNonceCount: 4n,
  head: 100n,
  requiredConfirmations: 3,
  waitedMs: 1_000,
  stuckAfterMs: 30_000,
};

describe('judging an EVM attempt', () => {
  it('is final once the mined block is as deep as the chain requires, success or revert alike', () => {
    expect(judgeEvmAttempt({ ...base, minedNonceCount: 5n, mined: { hash: '0xa', blockNumber: 98n, success: true } })).toEqual({
      kind: 'final',
      hash: '0xa',
      blockNumber: 98n,
      success: true,
    });
    expect(judgeEvmAttempt({ ...base, minedNonceCount: 5n, mined: { hash: '0xa', blockNumber: 98n, success: false } })).toMatchObject({
      kind: 'final',
      success: false,
    });
  });

  it('is only mined while shallower, whatever it waited', () => {
    expect(
      judgeEvmAttempt({ ...base, minedNonceCount: 5n, waitedMs: 99_000, mined: { hash: '0xb', blockNumber: 99n, success: true } }),
    ).toEqual({ kind: 'mined', hash: '0xb', blockNumber: 99n });
  });

  it('proves the nonce taken only when the count is past it and none of our hashes is mined', () => {
    expect(judgeEvmAttempt({ ...base, minedNonceCount: 5n })).toEqual({ kind: 'nonce-taken' });
    expect(judgeEvmAttempt({ ...base, minedNonceCount: 4n })).toEqual({ kind: 'pending' });
  });

  it('is stuck once it waited as long as allowed, and pending before', () => {
    expect(judgeEvmAttempt({ ...base, waitedMs: 30_000 })).toEqual({ kind: 'stuck' });
    expect(judgeEvmAttempt({ ...base, waitedMs: 29_999 })).toEqual({ kind: 'pending' });
  });
});

describe('fees', () => {
  const cap = 1_000n;

  it('raises both fees of a stuck transaction by the bump, rounding up, or to the estimate where that is higher', () => {
    expect(
      replacementFees(
        { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n },
        { maxFeePerGas: 90n, maxPriorityFeePerGas: 1n },
        { bumpPercent: 12, maxFeePerGasCap: cap },
      ),
    ).toEqual({ maxFeePerGas: 112n, maxPriorityFeePerGas: 12n });
    expect(
      replacementFees(
        { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n },
        { maxFeePerGas: 300n, maxPriorityFeePerGas: 40n },
        { bumpPercent: 12, maxFeePerGasCap: cap },
      ),
    ).toEqual({ maxFeePerGas: 300n, maxPriorityFeePerGas: 40n });
  });

  it('keeps the fee cap at least the priority fee', () => {
    expect(
      replacementFees(
        { maxFeePerGas: 10n, maxPriorityFeePerGas: 10n },
        { maxFeePerGas: 5n, maxPriorityFeePerGas: 50n },
        { bumpPercent: 10, maxFeePerGasCap: cap },
      ),
    ).toEqual({ maxFeePerGas: 50n, maxPriorityFeePerGas: 50n });
  });

  it('offers nothing past the ceiling, and refuses a bump nodes would reject', () => {
    expect(
      replacementFees(
        { maxFeePerGas: 950n, maxPriorityFeePerGas: 10n },
        { maxFeePerGas: 1n, maxPriorityFeePerGas: 1n },
        { bumpPercent: 10, maxFeePerGasCap: cap },
      ),
    ).toBeUndefined();
    expect(() =>
      replacementFees(
        { maxFeePerGas: 1n, maxPriorityFeePerGas: 1n },
        { maxFeePerGas: 1n, maxPriorityFeePerGas: 1n },
        { bumpPercent: 9, maxFeePerGasCap: cap },
      ),
    ).toThrow(/at least 10/);
    expect(initialFees({ maxFeePerGas: 1_001n, maxPriorityFeePerGas: 1n }, cap)).toBeUndefined();
    expect(initialFees({ maxFeePerGas: 1_000n, maxPriorityFeePerGas: 1n }, cap)).toEqual({
      maxFeePerGas: 1_000n,
      maxPriorityFeePerGas: 1n,
    });
  });
});

describe('the next nonce', () => {
  it('is past both what this service handed out and what the chain has mined', () => {
    expect(nextNonce(undefined, 0n)).toBe(0n);
    expect(nextNonce(7n, 3n)).toBe(7n);
    expect(nextNonce(2n, 5n)).toBe(5n);
  });
});
