/** A JSON-RPC error answer with a node's code (and its `data`, as preflight failures carry logs). */
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

/**
 * The commitment a request names in its config; none means `finalized`, a node's default (the RPC client leaves
 * `finalized` out of the requests it sends for that reason).
 */
export function commitmentOf(config: unknown): Commitment {
  const named = typeof config === 'object' && config !== null && 'commitment' in config ? config.commitment : undefined;
  return named === 'processed' || named === 'confirmed' ? named : 'finalized';
}
