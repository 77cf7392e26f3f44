// What reconciliation reads from the ledger and the sessions, and the reports it keeps (reconciliation_runs).
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
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

/**
 * The mode's deposit addresses on `chain` (an EVM chain or Tron) that may hold `token`: those with a confirmed deposit
 * of it that no finalized sweep took after (a sweep in a later block than the address's last deposit emptied it).
 * EVM addresses come lowercased, Tron's base58 as written (case matters there). Ordered, so runs read alike.
 */
export async function depositAddressesHolding(sql: Queryable, mode: Mode, chain: Chain, token: TokenSymbol): Promise<string[]> {
  const address = chain === 'tron' ? sql`d.to_address` : sql`lower(d.to_address)`;
  const swept = chain === 'tron' ? sql`a.address` : sql`lower(a.address)`;
  const rows = await sql<{ address: string }[]>`
    select h.address from (
      select ${address} as address, max(d.block_number) as last_block from deposits d join sessions s on s.id = d.session_id
      where s.mode = ${mode} and d.chain = ${chain} and d.token = ${token} and d.stage = 'confirmed'
      group by 1) h
    where not exists (
      select 1 from collector_sweep_addresses a join collector_sweeps w on w.id = a.sweep_id
      where ${swept} = h.address and w.chain = ${chain} and w.token = ${token} and w.mode = ${mode}
        and w.status = 'finalized' and w.block_number > h.last_block)
    order by h.address`;
  return rows.map((r) => r.address);
}

/**
 * The mode's HD deposit addresses on `chain` the relayer sent gas to: what deposit_gas:<chain> holds lies there.
 * EVM addresses lowercased, Tron's as written.
 */
export async function hdGasAddresses(sql: Queryable, mode: Mode, chain: Chain): Promise<string[]> {
  const address = chain === 'tron' ? sql`a.address` : sql`lower(a.address)`;
  const rows = await sql<{ address: string }[]>`
    select distinct ${address} as address from collector_sweep_addresses a join collector_sweeps w on w.id = a.sweep_id
    where w.mode = ${mode} and w.chain = ${chain} and w.kind = 'hd' and coalesce(w.topup_wei, 0) > 0
    order by 1`;
  return rows.map((r) => r.address);
}

/** The relayer's address on `chain` as the signer last recorded it (relayer_balances); none before its first sweep run. */
export async function recordedRelayerAddress(sql: Queryable, mode: Mode, chain: Chain): Promise<string | undefined> {
  const [row] = await sql<{ address: string }[]>`select address from relayer_balances where chain = ${chain} and mode = ${mode}`;
  return row?.address;
}
