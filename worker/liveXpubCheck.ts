// The worker's start-up check of DEPOSIT_XPUB_*_LIVE against the fingerprint the live signer published
// (docs/operations.md#signer-fingerprints): xpubs of another seed stop the start. Before any live signer has
// published, the worker starts, and each live address waits for the publication (sessionDepositAddresses.ts).
import { ConfigError } from '../config/env';
import type { Queryable } from '../db/client';
import { publishedXpubFingerprint } from '../db/repositories/signerFingerprints';
import type { AccountXpubs } from '../domain/addresses/hdDerivation';
import { judgeLiveXpubs, type LiveXpubJudgement } from '../domain/addresses/xpubFingerprint';

/** The judgement of the live xpubs, undefined without them; a mismatch throws. */
export async function checkLiveXpubsAtStart(sql: Queryable, xpubs: AccountXpubs | undefined): Promise<LiveXpubJudgement | undefined> {
  if (!xpubs) return undefined;
  const judgement = judgeLiveXpubs(xpubs, await publishedXpubFingerprint(sql, 'live'));
  if (judgement.verdict === 'differs') throw new ConfigError(`invalid configuration: ${judgement.reason}`);
  return judgement;
}
