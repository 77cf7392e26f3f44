// Which Solana address a session is shown (docs/settlement.md#deposit-addresses-only-the-services-own). The seed
// is the signer's alone and the path hardened-only, so the worker cannot check an address itself: it takes one only
// from a table the signer's role alone writes, the pool, where the signer records every address before it answers.
// An answer that reached the workflow from the signer's task queue is only the cue to look again; whoever else
// polls that queue can answer it, and what they answer is never shown.

export type SolanaAddressChoice =
  /** The session's stored address, or the one the signer recorded for its index. */
  | { address: string; unrecordedAnswer?: string }
  /** Nothing recorded for the index yet: ask the signer to derive (and record) it. */
  | { needed: true }
  /** The signer was asked, and what came back is not recorded for the index: not shown. */
  | { refused: string };

export function chooseSolanaDepositAddress(input: {
  sessionId: string;
  index: number;
  /** deposit_addresses.solana_address: written once, checked against the pool as it is written. */
  stored: string | null;
  /** solana_deposit_address_pool's address for the session's mode and index. */
  pooled: string | null;
  /** What the workflow was answered when it asked the signer's task queue, if it did. */
  answered?: string | undefined;
}): SolanaAddressChoice {
  const known = input.stored ?? input.pooled;
  if (known !== null) {
    if (input.answered !== undefined && input.stored === null && input.answered !== known)
      return { address: known, unrecordedAnswer: input.answered };
    return { address: known };
  }
  if (input.answered === undefined) return { needed: true };
  return {
    refused: `session ${input.sessionId}: the answer ${JSON.stringify(input.answered)} to the Solana address of index ${input.index} is not what the signer recorded for it (nothing is); not shown`,
  };
}
