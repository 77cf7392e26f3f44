/** A JSON-RPC error answer: the code and message a Solana node sends, and its `data` where it sends one. */
export class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export type Commitment = 'processed' | 'confirmed' | 'finalized';

/** A node's default commitment is `finalized` when the request names none. */
export function commitmentOf(config: unknown): Commitment {
  const named = typeof config === 'object' && config !== null && 'commitment' in config ? config.commitment : undefined;
  return named === 'processed' || named === 'confirmed' ? named : 'finalized';
}
