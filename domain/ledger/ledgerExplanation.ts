// Where one payment's units are by the ledger (`checkout-admin ledger explain`, `checkout-admin refund show`): the
// postings that name the payment, its session, its deposits or its refunds, netted per asset and account, and what
// each group of postings records, in words. Generic over accounts and assets: whatever account a posting names
// (merchant_payable, payouts_in_flight, deposits:<chain>, a refund or held account) is summed alike.

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

/** What a refund's posting group records, by the group's last word (docs/refunds.md#ledger). */
const REFUND_GROUPS: Record<string, string> = {
  reserve:
    "reserved for its payment: what the customer is owed (refund_due, or the merchant's receivable for a merchant refund) committed to refunds_in_flight",
  sent: 'paid: the USDC left the treasury for the customer, and the network fee taken from it went to operator_held',
  release: 'its payment failed: nothing left the treasury, and refunds_in_flight went back to where it was reserved from',
  expired: 'expired unclaimed: what the customer was owed (refund_due) went to operator_held, for the operator to decide on',
  failed: 'could not be paid: what the customer was owed (refund_due) went to operator_held, until an operator reissues it',
  cancelled: 'was withdrawn by an operator: what the customer was owed (refund_due) went to operator_held',
  reissued: 'reissues a refund that ended unpaid: what operator_held kept for it is owed to the customer again (refund_due)',
};

const PAYOUT_GROUPS: Record<string, string> = {
  reserve: 'reserved for its payout: what the merchant is owed (merchant_payable) committed to payouts_in_flight',
  sent: 'paid: the USDC left the treasury for the merchant',
  release: 'its payout failed on chain: nothing left the treasury, and the merchant is owed it again',
  netted:
    "netted from the merchant's receivable: the part of what the merchant is owed (merchant_payable) that repaid what it owes for refunds (merchant_receivable), moving no money",
  fee: "charged the operator's fee: the part of what the merchant is owed (merchant_payable) the operator keeps (operator_revenue), staying in the treasury",
};

const CHAIN_COSTS = 'SOL the transaction cost the treasury (its fee, and rent when it created an account)';

/** What a CCTP transfer's posting group records, by its last word (docs/settlement.md#ledger). */
const TRANSFER_GROUPS: Record<string, string> = {
  burned: 'burned on its source chain: the USDC left the collector, in flight (transfers_in_flight)',
  received: "minted to the treasury on Solana: what arrived is the treasury's, CCTP's fee went to bridge_fees",
  'chain-costs': 'received by the treasury: SOL the receive cost it (its fee, and the rent of the used_nonce account it created)',
};

/**
 * What a posting group records, in words, from its id alone (the ids derive from what happened: domain/ledger/ledger.ts
 * and the refund postings); undefined for a group whose kind this build does not know, which is shown by its id only.
 */
export function groupMeaning(groupId: string): string | undefined {
  const words = groupId.split(':');
  const [kind] = words;
  const last = words[words.length - 1] ?? '';
  if (kind === 'refund' && words.length >= 3) {
    const refundId = words[1];
    if (words.includes('chain-costs')) return `refund ${refundId}: ${CHAIN_COSTS}`;
    const meaning = REFUND_GROUPS[last];
    return meaning && `refund ${refundId} ${meaning}`;
  }
  if (kind === 'payout' && words.length >= 3) {
    const paymentId = words[1];
    if (words.includes('chain-costs')) return `payout of ${paymentId}: ${CHAIN_COSTS}`;
    const meaning = PAYOUT_GROUPS[last];
    return meaning && `payout of ${paymentId} ${meaning}`;
  }
  if (kind !== undefined && /^tr_[0-9a-f]+$/.test(kind) && words.length === 2) {
    const meaning = TRANSFER_GROUPS[last];
    return meaning && `CCTP transfer ${kind} ${meaning}`;
  }
  if (kind === 'deposit' && words.length === 4)
    return `deposit on ${words[1]} received at its deposit address: what pays the price pending for the merchant, any rest owed back to the customer (refund_due)`;
  if (kind === 'deposit' && words.length === 5 && last === 'settled')
    return `deposit on ${words[1]} settled: the part that pays the price became owed to the merchant in Solana USDC, any rest owed back to the customer`;
  if (kind === 'deposit' && words.length === 5 && last === 'credited')
    return `deposit on ${words[1]} kept for a refund, then credited to its session by its merchant: the part that pays the price moved from refund_due to pending for the merchant`;
  if (kind === 'treasury-funding') return "an operator's transaction into or out of the treasury";
  if (kind === 'relayer-funding') return `an operator's payment of gas coin to the relayer on ${words[1]}`;
  return undefined;
}
