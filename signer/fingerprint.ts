// The live signer's public proof of its seed (docs/operations.md#signer-fingerprints): at start it publishes the
// fingerprint of the account xpubs its live seed derives, the ones `--print-xpubs` prints, so the worker can refuse
// live xpubs of any other seed before a customer is shown an address the signer could never sweep.
import { ConfigError } from '../config/env';
import { accountXpubsFromSeed } from '../domain/addresses/hdDerivation';
import { xpubFingerprint } from '../domain/addresses/xpubFingerprint';
import { publishXpubFingerprint } from '../db/repositories/signerFingerprints';
import type { SignerDeps } from './activities';

export type Publication = { fingerprint: string; previous: string | undefined } | undefined;

/** Publishes the live seed's fingerprint; nothing without a live seed (a keyless live signer derives nothing). */
export async function publishLiveSignerFingerprint(signer: SignerDeps): Promise<Publication> {
  const seed = signer.depositSeeds.live;
  if (!seed) return undefined;
  if (!signer.addressPool) {
    throw new ConfigError(
      'invalid configuration: DATABASE_URL: is required by the live signer given DEPOSIT_MNEMONIC_LIVE, to publish the fingerprint the worker checks its live xpubs against',
    );
  }
  const fingerprint = xpubFingerprint(accountXpubsFromSeed(seed));
  const { previous } = await publishXpubFingerprint(signer.addressPool, 'live', fingerprint);
  return { fingerprint, previous };
}
