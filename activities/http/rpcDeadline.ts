// The limit on one Solana RPC call, shared by the signer's writes and the session worker's chain reads (treasury
// balances, reconciliation), which must not reach into the signer's code for it.

/**
 * Signing reads the chain inside a database transaction that holds the intent's row lock (and, for a payout, the
 * treasury's lock): a node that never answers must not keep them. The failed call is retried as the activity is.
 */
export const rpcDeadline = (timeoutMs = 10_000) => ({ abortSignal: AbortSignal.timeout(timeoutMs) });
