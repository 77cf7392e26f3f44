// A stored Solana transaction may be replaced only when it provably can never land: unknown to the node and its
// last valid block height behind the finalized chain. Everything short of that keeps the same bytes.
import { describe, expect, it } from 'vitest';
import { judgeAttempt, judgeNonceAttempt, payoutIntentId } from '../../../domain/chainWrites/solanaChainIntent';

const attempt = (finalizedBlockHeight: bigint) => ({ lastValidBlockHeight: 1_150n, finalizedBlockHeight });

describe('judging a signed transaction', () => {
  it('is dead only once the finalized height is past its last valid block height and the node knows nothing of it', () => {
    expect(judgeAttempt(null, attempt(1_151n))).toEqual({ kind: 'dead' });
    expect(judgeAttempt(null, attempt(1_150n))).toEqual({ kind: 'unseen' });
    expect(judgeAttempt(null, attempt(900n))).toEqual({ kind: 'unseen' });
  });

  it('a known signature is never dead, whatever the height', () => {
    expect(judgeAttempt({ slot: 7n, confirmationStatus: 'processed', err: null }, attempt(5_000n))).toEqual({ kind: 'processed' });
    expect(judgeAttempt({ slot: 7n, confirmationStatus: 'confirmed', err: null }, attempt(5_000n))).toEqual({
      kind: 'confirmed',
      slot: 7n,
    });
    expect(judgeAttempt({ slot: 7n, confirmationStatus: 'finalized', err: null }, attempt(5_000n))).toEqual({
      kind: 'finalized',
      slot: 7n,
    });
  });

  it('a transaction that landed with an error has failed once voted on; before that it may still be forked away', () => {
    const err = { InstructionError: [1, { Custom: 1 }] };
    expect(judgeAttempt({ slot: 7n, confirmationStatus: 'confirmed', err }, attempt(0n))).toEqual({ kind: 'failed', slot: 7n, err });
    expect(judgeAttempt({ slot: 7n, confirmationStatus: 'finalized', err }, attempt(0n))).toEqual({ kind: 'failed', slot: 7n, err });
    expect(judgeAttempt({ slot: 7n, confirmationStatus: 'processed', err }, attempt(0n))).toEqual({ kind: 'processed' });
  });

  it('names a payout intent after its payment', () => {
    expect(payoutIntentId('pay_01J0000000000000000000000A')).toBe('payout:pay_01J0000000000000000000000A');
  });
});

describe('judging a transaction signed against a durable nonce', () => {
  const nonce = (finalizedNonce: string | null) => ({ signedNonce: 'N1', finalizedNonce });

  it('is never dead: unknown to the node while its nonce is unchanged (or not yet final), it is sent again', () => {
    expect(judgeNonceAttempt(null, nonce('N1'))).toEqual({ kind: 'unseen' });
    expect(judgeNonceAttempt(null, nonce(null))).toEqual({ kind: 'unseen' });
  });

  it('unknown to the node once its nonce moved on: nothing is proven, nothing is signed, it waits', () => {
    expect(judgeNonceAttempt(null, nonce('N2'))).toEqual({ kind: 'nonce-moved' });
  });

  it('a known signature is judged as any other: landed, failed or waiting for votes', () => {
    const err = { InstructionError: [1, { Custom: 1 }] };
    expect(judgeNonceAttempt({ slot: 7n, confirmationStatus: 'confirmed', err: null }, nonce('N2'))).toEqual({
      kind: 'confirmed',
      slot: 7n,
    });
    expect(judgeNonceAttempt({ slot: 7n, confirmationStatus: 'finalized', err }, nonce('N2'))).toEqual({ kind: 'failed', slot: 7n, err });
    expect(judgeNonceAttempt({ slot: 7n, confirmationStatus: 'processed', err: null }, nonce('N1'))).toEqual({ kind: 'processed' });
  });
});
