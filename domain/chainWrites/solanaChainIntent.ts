// Write-ahead chain writes (docs/settlement.md#r1-written-ahead): what a stored, signed Solana transaction's fate is,
// judged from what a node says about its signature and how far the finalized chain has grown, or, for one signed
// against a durable nonce, what the finalized chain holds in its nonce account. Only `dead` allows signing a
// replacement, and a durable-nonce transaction is never judged dead; everything else keeps the same bytes.

export type ChainIntentStatus = 'prepared' | 'signed' | 'broadcast' | 'confirmed' | 'finalized' | 'failed';

/** Write-ahead ids: derived from what the transaction does, so a retry finds the same row. */
export const payoutIntentId = (paymentId: string, generation = 1) =>
  // A payment's first payout keeps the id it always had; one paid again after an operator's decision counts on.
  generation === 1 ? `payout:${paymentId}` : `payout:${paymentId}:${generation}`;

/** A node's getSignatureStatuses entry for one signature; null when the node knows nothing of it. */
export interface SignatureStatus {
  slot: bigint;
  confirmationStatus: 'processed' | 'confirmed' | 'finalized' | null;
  err: unknown;
}

export type AttemptVerdict =
  /** Landed with an error: the fee is paid and these bytes can never succeed. */
  | { kind: 'failed'; slot: bigint; err: unknown }
  | { kind: 'finalized'; slot: bigint }
  | { kind: 'confirmed'; slot: bigint }
  /** Seen in a block no supermajority has voted on yet: wait. */
  | { kind: 'processed' }
  /** Not seen and its blockhash has passed out of the finalized chain: it can never land. */
  | { kind: 'dead' }
  /** Not seen yet, and it may still land: send the same bytes (again). */
  | { kind: 'unseen' }
  /**
   * Durable nonce only: the node does not know the signature, yet the nonce it was signed against has moved on in
   * the finalized chain. Whatever moved it, these bytes can no longer land and nothing may be signed in their place
   * until a node that knows the transaction says what happened: wait.
   */
  | { kind: 'nonce-moved' };

/**
 * `finalizedBlockHeight` must be read before the signature's status: a transaction lands only in a block at
 * height ≤ lastValidBlockHeight, so once the finalized chain is past that height every block it could be in is
 * final, and a status read afterwards that finds nothing proves it never landed.
 */
export function judgeAttempt(
  status: SignatureStatus | null,
  attempt: { lastValidBlockHeight: bigint; finalizedBlockHeight: bigint },
): AttemptVerdict {
  if (status === null) return attempt.finalizedBlockHeight > attempt.lastValidBlockHeight ? { kind: 'dead' } : { kind: 'unseen' };
  if (status.err !== null && status.err !== undefined && status.confirmationStatus !== 'processed')
    return { kind: 'failed', slot: status.slot, err: status.err };
  if (status.confirmationStatus === 'finalized') return { kind: 'finalized', slot: status.slot };
  if (status.confirmationStatus === 'confirmed') return { kind: 'confirmed', slot: status.slot };
  return { kind: 'processed' };
}

/**
 * The fate of a transaction signed against a durable nonce: it can land for as long as its nonce account holds the
 * nonce it names, and never after, so no height or age ever makes it dead. `finalizedNonce` is the nonce the account
 * holds in the finalized chain (null: no such nonce account there yet), read after the signature's status. A node
 * that knows nothing of the signature while the nonce is unchanged proves only that the bytes may still land: send
 * them again. One whose nonce has moved proves nothing about the signature, however far its chain has grown.
 */
export function judgeNonceAttempt(
  status: SignatureStatus | null,
  nonce: { signedNonce: string; finalizedNonce: string | null },
): AttemptVerdict {
  if (status !== null) return judgeAttempt(status, { lastValidBlockHeight: 0n, finalizedBlockHeight: 0n });
  return nonce.finalizedNonce === null || nonce.finalizedNonce === nonce.signedNonce ? { kind: 'unseen' } : { kind: 'nonce-moved' };
}
