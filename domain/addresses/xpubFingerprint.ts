// Whether the worker's live xpubs are the live signer's (docs/operations.md#signer-fingerprints). The worker derives
// live EVM and Tron deposit addresses from DEPOSIT_XPUB_*_LIVE alone; nothing in them says which seed they came from,
// so xpubs of another seed (the public development ones, a copy from another deployment) would hand customers
// addresses the live signer cannot sweep. The live signer publishes a fingerprint of the xpubs its seed derives; the
// worker hands out a live address only while its own xpubs have the same.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { AccountXpubs } from './hdDerivation';

/** sha256 over both account xpubs, as `--print-xpubs` prints them: public, and a different seed changes it. */
export function xpubFingerprint(xpubs: AccountXpubs): string {
  return `sha256:${bytesToHex(sha256(utf8ToBytes(`evm=${xpubs.evm}\ntron=${xpubs.tron}`)))}`;
}

export type LiveXpubJudgement =
  | { verdict: 'matches' }
  /** No live signer has published yet: retry once one has started. */
  | { verdict: 'unpublished'; reason: string }
  /** The worker's xpubs are another seed's: never hand out an address from them. */
  | { verdict: 'differs'; reason: string };

/** The worker's live xpubs against the fingerprint the live signer published, if it has. */
export function judgeLiveXpubs(configured: AccountXpubs, published: string | undefined): LiveXpubJudgement {
  if (published === undefined) {
    return {
      verdict: 'unpublished',
      reason:
        'no live signer has published its xpub fingerprint yet (signer_fingerprints): live EVM and Tron deposit addresses wait for SIGNER_MODE=live to start',
    };
  }
  const own = xpubFingerprint(configured);
  if (own === published) return { verdict: 'matches' };
  return {
    verdict: 'differs',
    reason: `DEPOSIT_XPUB_EVM_LIVE / DEPOSIT_XPUB_TRON_LIVE (fingerprint ${own}) are not the live signer's (${published}): its seed could not sweep their addresses; set the xpubs SIGNER_MODE=live prints with npm run signer -- --print-xpubs`,
  };
}
