// What reconciliation reads from the ledger and the sessions, and the reports it keeps (reconciliation_runs).
import type { Asset } from '../../domain/ledger/ledger';
import type { Difference, ReconciledAccount, ReconciledBalance } from '../../domain/ledger/reconciliation';
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';

/** What the ledger says each of `accounts` holds in `mode`; an account without entries is left out (zero). */
export async function ledgerBalances(
  sql: Queryable,
  mode: Mode,
  accounts: readonly ReconciledAccount[],
): Promise<Array<ReconciledAccount & { amount: bigint }>> {
  const rows = await sql<{ account: string; asset: Asset; amount: string }[]>`
    select account, asset, sum(amount)::text as amount from ledger_entries
    where mode = ${mode} and account = any(${[...new Set(accounts.map((a) => a.account))]}) group by account, asset`;
  return rows.map((r) => ({ account: r.account, asset: r.asset, amount: BigInt(r.amount) }));
}

/** The owners of the Solana deposit accounts of `mode`'s sessions: every session a Solana pair was chosen for. */
export async function solanaDepositOwners(sql: Queryable, mode: Mode): Promise<string[]> {
  const rows = await sql<{ solana_address: string }[]>`
    select solana_address from deposit_addresses where mode = ${mode} and solana_address is not null order by derivation_index`;
  return rows.map((r) => r.solana_address);
}

export interface ReconciliationRun {
  id: string;
  mode: Mode;
  ranAt: Date;
  balances: ReconciledBalance[];
  differences: Difference[];
}

type Stored = Record<string, string>;

const amounts = (b: ReconciledBalance | Difference): Stored => ({
  account: b.account,
  asset: b.asset,
  ledger: b.ledger.toString(),
  observed: b.observed.toString(),
  ...('difference' in b ? { difference: b.difference.toString() } : {}),
});

const balance = (s: Stored): ReconciledBalance => ({
  account: s.account as string,
  asset: s.asset as Asset,
  ledger: BigInt(s.ledger as string),
  observed: BigInt(s.observed as string),
});

interface RunRow {
  id: string;
  mode: Mode;
  ran_at: Date;
  balances: Stored[];
  differences: Stored[];
}

const toRun = (r: RunRow): ReconciliationRun => ({
  id: r.id,
  mode: r.mode,
  ranAt: r.ran_at,
  balances: r.balances.map(balance),
  differences: r.differences.map((d) => ({ ...balance(d), difference: BigInt(d.difference as string) })),
});

export async function insertReconciliationRun(
  sql: Queryable,
  mode: Mode,
  balances: readonly ReconciledBalance[],
  differences: readonly Difference[],
): Promise<ReconciliationRun> {
  const [row] = await sql<RunRow[]>`
    insert into reconciliation_runs (mode, balances, differences)
    values (${mode}, ${sql.json(balances.map(amounts))}, ${sql.json(differences.map(amounts))})
    returning id::text, mode, ran_at, balances, differences`;
  return toRun(row as RunRow);
}

/** Each mode's newest run; a mode never reconciled is absent. */
export async function lastReconciliationRuns(sql: Queryable): Promise<ReconciliationRun[]> {
  const rows = await sql<RunRow[]>`
    select distinct on (mode) id::text, mode, ran_at, balances, differences from reconciliation_runs order by mode, ran_at desc, id desc`;
  return rows.map(toRun);
}
