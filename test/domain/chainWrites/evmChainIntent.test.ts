// What a signed EVM transaction's fate is and what a replacement offers (domain/chainWrites/evmChainIntent.ts).
import { describe, expect, it } from 'vitest';
import {
  initialFees,
  judgeEvmAttempt,
  judgeNonceTaken,
  nextNonce,
  replacementFees,
  type EvmAttemptObservation,
  type NonceTakenRead,
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

describe('proving a nonce taken before signing a new one', () => {
  const ours = ['0xA1', '0xa2'];
  const shows = (provider: string, overrides: Partial<NonceTakenRead> = {}): NonceTakenRead => ({
    provider,
    minedNonceCount: 5n,
    knowsOurs: false,
    head: 110n,
    consumedIn: { blockNumber: 100n, hash: '0xb0' },
    ...overrides,
  });
  const judge = (...reads: NonceTakenRead[]) => judgeNonceTaken({ nonce: 4n, hashes: ours, reads });

  it('takes two providers showing the same other transaction in the same block, at or past it', () => {
    expect(judge(shows('first'), shows('last', { head: 100n }))).toEqual({ kind: 'taken', hash: '0xb0', blockNumber: 100n });
  });

  it("never takes one provider's word, however sure", () => {
    expect(judge(shows('first'))).toMatchObject({ kind: 'unproven', reason: expect.stringMatching(/second RPC URL/) });
    expect(judge(shows('first'), shows('first'))).toMatchObject({ kind: 'unproven' });
    expect(judge()).toMatchObject({ kind: 'unproven' });
  });

  it('a provider whose block holds our own transaction lacks its history: nothing new is signed', () => {
    expect(judge(shows('first', { consumedIn: { blockNumber: 100n, hash: '0xa2' } }), shows('last'))).toMatchObject({
      kind: 'unproven',
      reason: expect.stringMatching(/lacks that history/),
    });
    expect(judge(shows('first'), shows('last', { knowsOurs: true }))).toMatchObject({ kind: 'unproven' });
  });

  it('a provider behind the block that used the nonce, or not counting it used, proves nothing', () => {
    expect(judge(shows('first'), shows('last', { head: 99n }))).toMatchObject({
      kind: 'unproven',
      reason: expect.stringMatching(/before block 100/),
    });
    expect(judge(shows('first'), shows('last', { minedNonceCount: 4n }))).toMatchObject({ kind: 'unproven' });
    expect(judge(shows('first'), shows('last', { consumedIn: undefined }))).toMatchObject({ kind: 'unproven' });
    expect(judge(shows('first'), shows('last', { consumedIn: { blockNumber: 100n, hash: undefined } }))).toMatchObject({
      kind: 'unproven',
    });
  });

  it('providers naming different transactions or blocks prove nothing', () => {
    expect(judge(shows('first'), shows('last', { consumedIn: { blockNumber: 100n, hash: '0xb1' } }))).toMatchObject({ kind: 'unproven' });
    expect(judge(shows('first'), shows('last', { consumedIn: { blockNumber: 101n, hash: '0xb0' } }))).toMatchObject({ kind: 'unproven' });
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
