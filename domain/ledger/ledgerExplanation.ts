// Where one payment's units are by the ledger (`checkout-admin ledger explain`): the postings that name the payment,
// its session or its deposits, netted per asset and account. Generic over accounts and assets: whatever account a
// posting names (merchant_payable, payouts_in_flight, deposits:<chain>, a refund or held account) is summed alike.

/** One ledger entry as `ledger explain` lists it. */
export interface ExplainedEntry {
  groupId: string;
  account: string;
  asset: string;
  /** Base units; positive debits, negative credits. */
  amount: bigint;
}

/** What an account holds of an asset after the payment's postings: where its units are now. */
export interface Holding {
  asset: string;
  account: string;
  amount: bigint;
}

/**
 * Per asset and account, what `entries` net to; accounts they leave at zero are left out. Balanced postings net to
 * zero per asset, so the holdings of an asset sum to zero: debits (what an account holds or is owed) against the
 * credits they came from.
 */
export function holdingsOf(entries: readonly ExplainedEntry[]): Holding[] {
  const sums = new Map<string, Holding>();
  for (const entry of entries) {
    const key = `${entry.asset}\u0000${entry.account}`;
    const held = sums.get(key) ?? { asset: entry.asset, account: entry.account, amount: 0n };
    sums.set(key, { ...held, amount: held.amount + entry.amount });
  }
  return [...sums.values()]
    .filter((h) => h.amount !== 0n)
    .sort((a, b) => (a.asset === b.asset ? a.account.localeCompare(b.account) : a.asset.localeCompare(b.asset)));
}
