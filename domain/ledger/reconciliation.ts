// Reconciliation (docs/settlement.md#r5-double-entry-reconciled): what the ledger says an account holds against what
// the chain holds for it, per account and asset. The accounts compared are those with a chain counterpart: the
// treasury's USDC and SOL and the USDC waiting in Solana deposit accounts (here), and the collectors, EVM deposit
// addresses, HD gas and relayers the activity adds per chain. An account the ledger has never posted to holds zero
// by the ledger, so tokens that reach a wallet without being recorded are reported, not ignored.
import { ACCOUNT, ASSET, type Asset } from './ledger';

export interface ReconciledAccount {
  account: string;
  asset: Asset;
}

/** Each account and asset a run compares with the chain. */
export const RECONCILED_ACCOUNTS: readonly ReconciledAccount[] = [
  { account: ACCOUNT.treasury, asset: ASSET.usdcSolana },
  { account: ACCOUNT.treasury, asset: ASSET.solSolana },
  { account: ACCOUNT.deposits, asset: ASSET.usdcSolana },
];

export interface ReconciledBalance extends ReconciledAccount {
  /** Base units the ledger says the account holds. */
  ledger: bigint;
  /** Base units found on chain. */
  observed: bigint;
}

export interface Difference extends ReconciledBalance {
  /** observed - ledger: positive when the chain holds more than recorded. */
  difference: bigint;
}

const key = (a: ReconciledAccount) => `${a.account} ${a.asset}`;

/**
 * Pairs each reconciled account's ledger balance with its observed one. An account missing from `ledger` holds
 * zero; one missing from `observed` was not read, which is a caller's bug, never a zero balance.
 */
export function reconcileBalances(
  accounts: readonly ReconciledAccount[],
  ledger: ReadonlyArray<ReconciledAccount & { amount: bigint }>,
  observed: ReadonlyArray<ReconciledAccount & { amount: bigint }>,
): ReconciledBalance[] {
  const ledgerByKey = new Map(ledger.map((b) => [key(b), b.amount]));
  const observedByKey = new Map(observed.map((b) => [key(b), b.amount]));
  return accounts.map((account) => {
    const seen = observedByKey.get(key(account));
    if (seen === undefined) throw new Error(`no on-chain balance was read for ${key(account)}`);
    return { account: account.account, asset: account.asset, ledger: ledgerByKey.get(key(account)) ?? 0n, observed: seen };
  });
}

/** The balances whose ledger and chain amounts differ. */
export function differences(balances: readonly ReconciledBalance[]): Difference[] {
  return balances.filter((b) => b.observed !== b.ledger).map((b) => ({ ...b, difference: b.observed - b.ledger }));
}
