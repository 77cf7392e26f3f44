// The fingerprint the live signer publishes of its seed's xpubs, and the worker's judgement of its own live xpubs
// against it: the same seed's xpubs match, another seed's (the public development ones) differ, none published waits.
import { mnemonicToSeedSync } from '@scure/bip39';
import { describe, expect, it } from 'vitest';
import { accountXpubsFromSeed } from '../../../domain/addresses/hdDerivation';
import { DEVELOPMENT_ACCOUNT_XPUBS } from '../../../domain/addresses/depositSeed';
import { judgeLiveXpubs, xpubFingerprint } from '../../../domain/addresses/xpubFingerprint';

const LIVE = accountXpubsFromSeed(
  mnemonicToSeedSync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'),
);

describe('xpubFingerprint', () => {
  it('is a sha256 of both xpubs: the same for the same xpubs, another when either differs', () => {
    expect(xpubFingerprint(LIVE)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(xpubFingerprint({ ...LIVE })).toBe(xpubFingerprint(LIVE));
    expect(xpubFingerprint({ ...LIVE, tron: DEVELOPMENT_ACCOUNT_XPUBS.tron })).not.toBe(xpubFingerprint(LIVE));
    expect(xpubFingerprint({ ...LIVE, evm: DEVELOPMENT_ACCOUNT_XPUBS.evm })).not.toBe(xpubFingerprint(LIVE));
    // Which xpub is which counts: swapped, they would derive other addresses.
    expect(xpubFingerprint({ evm: LIVE.tron, tron: LIVE.evm })).not.toBe(xpubFingerprint(LIVE));
  });
});

describe('judgeLiveXpubs', () => {
  it("matches the live signer's own xpubs", () => {
    expect(judgeLiveXpubs(LIVE, xpubFingerprint(LIVE))).toEqual({ verdict: 'matches' });
  });

  it('refuses the public development xpubs against a live signer of another seed, naming both fingerprints', () => {
    const judgement = judgeLiveXpubs(DEVELOPMENT_ACCOUNT_XPUBS, xpubFingerprint(LIVE));
    expect(judgement.verdict).toBe('differs');
    expect(judgement).toMatchObject({ reason: expect.stringContaining(xpubFingerprint(LIVE)) });
    expect(judgement).toMatchObject({ reason: expect.stringContaining(xpubFingerprint(DEVELOPMENT_ACCOUNT_XPUBS)) });
  });

  it('waits, retryably, while no live signer has published', () => {
    expect(judgeLiveXpubs(LIVE, undefined)).toMatchObject({ verdict: 'unpublished', reason: expect.stringContaining('SIGNER_MODE=live') });
  });
});
