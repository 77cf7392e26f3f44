// Which Solana deposit accounts a sweep takes, and how they split into transactions
// (docs/settlement.md#deposit-sweeps). Each account costs a signature (its deposit key is the token authority), two
// keys and two instructions: 152 bytes of a transaction's 1,232, after 232 for the treasury's signature, the shared
// keys and the blockhash. Six fit.

/** Deposit accounts per sweep transaction: seven would be 1,296 bytes (test/signer/sweeps/sweepTransaction.test.ts). */
export const SWEEP_BATCH_LIMIT = 6;

export interface SweepCandidate {
  /** The deposit address: the wallet the indexer saw credited, derived from the seed at `derivationIndex`. */
  owner: string;
  derivationIndex: number;
  /** Its USDC account and that account's balance as the chain reports it; undefined when the account does not exist. */
  tokenAccount: string;
  balance: bigint | undefined;
  /** What the ledger holds for it in deposits:solana for the treasury: its credited deposits, less their refund-due excess, less what sweeps took. */
  owed: bigint;
}

/**
 * What a sweep may take from an account: what it holds, up to what the ledger says it holds for payments. The rest
 * (a late deposit or an overpayment's excess, kept for a refund) stays, and so does the account, as only an empty account can be closed.
 */
export function sweepAmount(balance: bigint | undefined, owed: bigint): bigint {
  if (balance === undefined || balance <= 0n || owed <= 0n) return 0n;
  return balance < owed ? balance : owed;
}

/**
 * Accounts with something to sweep (sweepAmount), in derivation order (so a retried plan groups them alike), cut
 * into batches of at most `limit`. An empty or closed account has nothing to sweep; an account named twice is swept once.
 */
export function planSweepBatches<C extends SweepCandidate>(candidates: readonly C[], limit = SWEEP_BATCH_LIMIT): C[][] {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`a sweep batch holds at least one account, got ${limit}`);
  const seen = new Set<string>();
  const sweepable = [...candidates]
    .filter((c) => sweepAmount(c.balance, c.owed) > 0n)
    .sort((a, b) => a.derivationIndex - b.derivationIndex || a.tokenAccount.localeCompare(b.tokenAccount))
    .filter((c) => !seen.has(c.tokenAccount) && seen.add(c.tokenAccount));
  const batches: C[][] = [];
  for (let i = 0; i < sweepable.length; i += limit) batches.push(sweepable.slice(i, i + limit));
  return batches;
}
