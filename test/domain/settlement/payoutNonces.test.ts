// A nonce account goes to a new payout only once the nonce its last payout was signed against has moved on in the
// finalized chain: two transactions in flight never name the same nonce.
import { describe, expect, it } from 'vitest';
import {
  noncePoolIntentId,
  payoutNonceSeeds,
  pickNonceAccount,
  PAYOUT_NONCE_ACCOUNTS,
  type PoolAccount,
} from '../../../domain/settlement/payoutNonces';

const TREASURY = 'Treasury1111111111111111111111111111111111';
const account = (address: string, heldNonce: string | null, finalized: PoolAccount['finalized']): PoolAccount => ({
  address,
  heldNonce,
  finalized,
});

describe('picking a nonce account for a payout', () => {
  it('takes a free account, signing with the nonce the finalized chain holds', () => {
    expect(pickNonceAccount([account('A', null, { authority: TREASURY, nonce: 'N1' })], TREASURY)).toEqual({ address: 'A', nonce: 'N1' });
  });

  it('skips an account whose payout has not moved its nonce in the finalized chain yet, and takes it once it has', () => {
    const held = account('A', 'N1', { authority: TREASURY, nonce: 'N1' });
    expect(pickNonceAccount([held], TREASURY)).toBeUndefined();
    expect(pickNonceAccount([held, account('B', null, { authority: TREASURY, nonce: 'M1' })], TREASURY)).toEqual({
      address: 'B',
      nonce: 'M1',
    });
    expect(pickNonceAccount([account('A', 'N1', { authority: TREASURY, nonce: 'N2' })], TREASURY)).toEqual({ address: 'A', nonce: 'N2' });
  });

  it('never an account not yet final, nor one the treasury does not control', () => {
    expect(pickNonceAccount([account('A', null, null)], TREASURY)).toBeUndefined();
    expect(pickNonceAccount([account('A', null, { authority: 'Other', nonce: 'N1' })], TREASURY)).toBeUndefined();
  });

  it('a treasury has a fixed pool of seeds and one intent that creates them', () => {
    expect(payoutNonceSeeds()).toHaveLength(PAYOUT_NONCE_ACCOUNTS);
    expect(new Set(payoutNonceSeeds()).size).toBe(PAYOUT_NONCE_ACCOUNTS);
    expect(noncePoolIntentId(TREASURY)).toBe(`nonce-pool:${TREASURY}`);
  });
});
