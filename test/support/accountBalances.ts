// What a set of ledger postings leaves on each account (all assets summed: for postings in one asset), zero balances
// left out; an undefined posting (a group with nothing to post) counts as none.
import type { LedgerEntry, LedgerPosting } from '../../domain/ledger/ledger';

export function accountBalances(postings: readonly (LedgerPosting | undefined)[]): Record<string, bigint> {
  const out: Record<string, bigint> = {};
  for (const e of postings.flatMap((p) => p?.entries ?? ([] as LedgerEntry[]))) out[e.account] = (out[e.account] ?? 0n) + e.amount;
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== 0n));
}
